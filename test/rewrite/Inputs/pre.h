// Included through -include by build-options.cl.
#define OFFSET 3
