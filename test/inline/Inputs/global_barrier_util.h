#define UNUSED_UTIL 1
