// printf: OpenCL.std printf, the format and the %s argument as UniformConstant i8 pointers.
kernel void hello(global int* o, float f) {
  printf("hello %d %f %s\n", (int)get_global_id(0), f, "x");
  o[0] = 1;
}
