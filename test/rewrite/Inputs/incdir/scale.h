// Included through -I by build-options.cl.
#define SCALE(x) ((x) * FACTOR)
