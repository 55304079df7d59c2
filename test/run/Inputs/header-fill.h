// The header test/run/Inputs/header-fill.cl includes.
#define FROM_HEADER 40u
