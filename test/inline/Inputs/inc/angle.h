#define ANGLE 2u
