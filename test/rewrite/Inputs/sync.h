// Included by preprocessor-options.cl.
#define STEP_SIZE 4
