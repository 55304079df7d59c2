#include "gsync.h"
void sync_all(void) { global_barrier(); }
