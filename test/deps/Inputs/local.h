// Included by deps.cl (quoted, next to the input); includes nested.h.
#ifndef LOCAL_H
#define LOCAL_H
#include "nested.h"
#define SCALE 2u
#endif
