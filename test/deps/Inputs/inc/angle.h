// Included by deps.cl as <angle.h>, found through -I.
#define ANGLE 3u
