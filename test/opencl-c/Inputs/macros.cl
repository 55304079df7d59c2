// Fails to parse unless the feature macros are as the test wants.
#ifdef WANT_NO_IMAGES
#if defined(__opencl_c_images) || defined(__opencl_c_read_write_images) || defined(__opencl_c_3d_image_writes) || !defined(__opencl_c_fp64)
#error images and the features that need them must be off, fp64 on
#endif
#endif
#ifdef WANT_ALL_BUT_PIPES
#if defined(__opencl_c_pipes) || !defined(__opencl_c_generic_address_space) || !defined(__opencl_c_subgroups) || !defined(__opencl_c_work_group_collective_functions) || !defined(__opencl_c_atomic_scope_all_devices) || !defined(__opencl_c_program_scope_global_variables)
#error every feature but pipes must be on
#endif
#endif
kernel void k(global uint *a) { a[get_global_id(0)] = 1; global_barrier(); }
