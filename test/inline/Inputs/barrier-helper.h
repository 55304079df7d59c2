// A helper header whose function calls global_barrier().
void sync_all(void) { global_barrier(); }
