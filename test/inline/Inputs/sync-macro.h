// Macros that spell global_barrier() and a remapped id in a header.
#define SYNC_ALL() global_barrier()
#define GID get_global_id(0)
