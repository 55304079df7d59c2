// Included on the input's first line, from standard input.
#define FIRST 5u
