#define PRE 4u
