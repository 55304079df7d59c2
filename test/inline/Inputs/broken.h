// Compiled with -DBROKEN, its error must point here.
uint twice(uint x) {
#ifdef BROKEN
  return x * undeclared_in_header;
#endif
  return 2u * x;
}
