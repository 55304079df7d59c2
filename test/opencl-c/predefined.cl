// The input is parsed with the macros an OpenCL driver predefines. clang's
// own OpenCL parse has __OPENCL_C_VERSION__, CL_VERSION_1_0 to _3_0 and
// __ENDIAN_LITTLE__; a driver adds __OPENCL_VERSION__ (the device's OpenCL
// version: here the oldest that builds the output, the version the
// constraints require) and __IMAGE_SUPPORT__ (a device with images: every
// full-profile one before 3.0, in 3.0 one with __opencl_c_images), and so
// does the tool. The source fails to parse unless each is as the test
// wants; a -D or -U of the same name is the user's, with no warning.
// RUN: %gsync -DVERSION=120 -DC_VERSION=120 -DIMAGES %s -o %t.cl 2> %t.err
// RUN: count 0 < %t.err
// RUN: %gsync -cl-std=CL1.1 -DVERSION=110 -DC_VERSION=110 -DIMAGES %s -o %t.cl
// RUN: %gsync -cl-std=CL2.0 -DVERSION=200 -DC_VERSION=200 -DIMAGES %s -o %t.cl
// RUN: %gsync -cl-std=CL3.0 -DVERSION=300 -DC_VERSION=300 -DIMAGES %s -o %t.cl
// RUN: %gsync -cl-std=CL3.0 -cl-ext=-__opencl_c_images -DVERSION=300 -DC_VERSION=300 %s -o %t.cl
// A rule that needs OpenCL C 2.0 makes the output need a 2.0 device.
// RUN: %gsync --barrier=acq-rel -DVERSION=200 -DC_VERSION=120 -DIMAGES %s -o %t.cl --constraints %t.json
// RUN: FileCheck --check-prefix=JSON %s < %t.json
// JSON: "opencl_c_version": "2.0",
// RUN: %gsync -D__OPENCL_VERSION__=300 -DVERSION=300 -DC_VERSION=120 -DIMAGES %s -o %t.cl 2> %t.user.err
// RUN: count 0 < %t.user.err
// RUN: %gsync -U__IMAGE_SUPPORT__ -DVERSION=120 -DC_VERSION=120 %s -o %t.cl 2>&1 | FileCheck --check-prefix=UNDEF %s
// UNDEF: gsync-rewrite: warning: clBuildProgram takes no -U: libgsync builds the output without '-U__IMAGE_SUPPORT__'
// The same checks fail where a macro is not as they want.
// RUN: not %gsync -DVERSION=300 -DC_VERSION=120 -DIMAGES %s -o %t.cl 2>&1 | FileCheck --check-prefix=WRONG %s
// WRONG: predefined.cl:[[@LINE+2]]:2: error: __OPENCL_VERSION__ is not VERSION
#if !defined(__OPENCL_VERSION__) || __OPENCL_VERSION__ != VERSION
#error __OPENCL_VERSION__ is not VERSION
#endif
#if __OPENCL_C_VERSION__ != C_VERSION
#error __OPENCL_C_VERSION__ is not C_VERSION
#endif
#if defined(IMAGES) != defined(__IMAGE_SUPPORT__)
#error __IMAGE_SUPPORT__ is not as wanted
#endif
#if defined(__IMAGE_SUPPORT__) && __IMAGE_SUPPORT__ != 1
#error __IMAGE_SUPPORT__ is not 1
#endif
#if CL_VERSION_1_0 != 100 || CL_VERSION_1_1 != 110 || CL_VERSION_1_2 != 120 || CL_VERSION_2_0 != 200 || CL_VERSION_3_0 != 300 || !defined(__ENDIAN_LITTLE__)
#error a macro clang defines is missing
#endif
kernel void k(global uint *a, uint n) {
  for (uint i = get_global_id(0); i < n; i += get_global_size(0))
    a[i] = 1;
  global_barrier();
}
