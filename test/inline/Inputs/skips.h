void maybe_sync(void) {
#ifdef NEVER_DEFINED
  global_barrier();
#endif
}
