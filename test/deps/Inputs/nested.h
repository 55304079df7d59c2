// Included by local.h: a dependency two levels down.
#define OFFSET 1u
