// The generic address space: casts to and from named spaces, and to_global/to_local.
int sum(int *p, int n) {
  int s = 0;
  for (int i = 0; i < n; i++) s += p[i];
  return s;
}
kernel void gen(global int *g, local int *l) {
  l[get_local_id(0)] = g[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  int *p = get_local_id(0) % 2 ? (int *)g : (int *)l;
  global int *back = to_global(p);
  local int *lback = to_local(p);
  int v = sum(p, 2);
  if (back) v += back[0];
  if (lback) v += lback[0];
  g[get_global_id(0)] = v;
}
