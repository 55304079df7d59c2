// A file without global_barrier() comes out byte for byte, ids and all,
// including odd spacing, comments and CRLF-free trailing whitespace.
// RUN: %gsync %s -o %t.cl
// RUN: cmp %s %t.cl
// RUN: %gsync - < %s > %t.stdin.cl
// RUN: cmp %s %t.stdin.cl
#define N 64
kernel   void   scale( global float *x , float s )   {
  /* global_barrier is only mentioned in this comment */
  x[ get_global_id(0) ] *= s;    
}
