// Pulled in with -include.
#define PRE 4u
