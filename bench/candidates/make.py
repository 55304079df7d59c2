#!/usr/bin/python3
"""bench/candidates/make.py DIR: writes the candidate barrier rules measured
on the H100 while choosing the default (bench/results/h100-explore.md) into
DIR, one barrier-NAME.cl each, for `gsync-rewrite --rules-dir`. Each starts
with the PTX primitives (NVIDIA, sm_70+) or their OpenCL 1.1 stand-ins, then
its gsync_barrier(). Names: -ar atom.release + ld.acquire; -red red.release
(top bit read before arriving); -rx relaxed spin + one acquire; -sN
nanosleep N; -lb CLK_LOCAL_MEM_FENCE-only work-group barriers; -vol volatile
spin; treeK / tK leaves of K groups; gen: counter + generation word.
Their waits are plain spins, as when they were measured: the spin limit
(prelude.cl's gsync_spin_while) does not bound them."""
import os, sys

PRIMITIVES = r'''#if defined(__NV_CL_C_VERSION) || defined(cl_nv_pragma_unroll)
uint gsync_ld_acquire(global uint *p) {
  uint v;
  asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"((ulong)p) : "memory");
  return v;
}
uint gsync_ld_relaxed(global uint *p) {
  uint v;
  asm volatile("ld.relaxed.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"((ulong)p) : "memory");
  return v;
}
uint gsync_add_release(global uint *p, uint x) {
  uint v;
  asm volatile("atom.release.gpu.global.add.u32 %0, [%1], %2;" : "=r"(v) : "l"((ulong)p), "r"(x) : "memory");
  return v;
}
uint gsync_add_acqrel(global uint *p, uint x) {
  uint v;
  asm volatile("atom.acq_rel.gpu.global.add.u32 %0, [%1], %2;" : "=r"(v) : "l"((ulong)p), "r"(x) : "memory");
  return v;
}
void gsync_red_release(global uint *p, uint x) {
  asm volatile("red.release.gpu.global.add.u32 [%0], %1;" :: "l"((ulong)p), "r"(x) : "memory");
}
void gsync_st_relaxed(global uint *p, uint x) {
  asm volatile("st.relaxed.gpu.global.u32 [%0], %1;" :: "l"((ulong)p), "r"(x) : "memory");
}
void gsync_fence_acqrel(void) { asm volatile("fence.acq_rel.gpu;" ::: "memory"); }
void gsync_sleep(uint ns) { asm volatile("nanosleep.u32 %0;" :: "r"(ns) : "memory"); }
#else
uint gsync_ld_acquire(global uint *p) { uint v = atomic_or(p, 0u); gsync_device_fence(); return v; }
uint gsync_ld_relaxed(global uint *p) { return atomic_or(p, 0u); }
uint gsync_add_release(global uint *p, uint x) { gsync_device_fence(); return atomic_add(p, x); }
uint gsync_add_acqrel(global uint *p, uint x) { gsync_device_fence(); uint v = atomic_add(p, x); gsync_device_fence(); return v; }
void gsync_red_release(global uint *p, uint x) { gsync_device_fence(); atomic_add(p, x); }
void gsync_st_relaxed(global uint *p, uint x) { atomic_xchg(p, x); }
void gsync_fence_acqrel(void) { gsync_device_fence(); }
void gsync_sleep(uint ns) {}
#endif
'''
G = 'CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE'
L = 'CLK_LOCAL_MEM_FENCE'
TOP = '0x80000000u'


def rule(name, summary, fixed, body, per_group=None):
    head = (f'/* barrier-{name}: a candidate (bench/candidates/make.py).\n *\n'
            f' * @summary {summary}\n * @opencl-c 1.1\n'
            f' * @extension cl_khr_global_int32_base_atomics\n'
            f' * @state-fixed {fixed}\n')
    if per_group:
        head += f' * @state-per-group {per_group}\n'
    return name, head + ' */\n' + PRIMITIVES + body


def barrier(fence, inner, setup='global uint *word = c->state + 16;'):
    return (f'void gsync_barrier(private struct gsync_ctx *c, uint site) {{\n  {setup}\n'
            f'  barrier({fence});\n  if (gsync_leader()) {{\n'
            f'    uint add = c->group == 0 ? {TOP} - (c->groups - 1u) : 1u;\n'
            f'{inner}  }}\n  barrier({fence});\n}}\n')


def flip_old(fence, load, after, pause, arrive):
    """Round 1: the add returns the old top bit."""
    return barrier(fence, f'    uint old = {arrive}(word, add);\n'
                   f'    while (((old ^ {load}(word)) & {TOP}) == 0)\n'
                   f'      {pause};\n    {after};\n')


def spin(word, sleep, final):
    load = 'gsync_ld_relaxed' if final else 'gsync_ld_acquire'
    s = f'    while (({load}({word}) & {TOP}) == before)\n'
    s += f'      gsync_sleep({sleep}u);\n' if sleep else '      ;\n'
    return s + (f'    gsync_ld_acquire({word});\n' if final else '')


def flip_red(sleep, final):
    """Round 2: the top bit is read before a red.release arrival."""
    return barrier(L, f'    uint before = gsync_ld_relaxed(word) & {TOP};\n'
                   f'    gsync_red_release(word, add);\n' + spin('word', sleep, final))


def tree(k, arrive_top, sleep, final):
    inner = (f'    uint leaf = c->group / {k}u, leaves = (c->groups + {k - 1}u) / {k}u;\n'
             f'    uint size = min({k}u, c->groups - leaf * {k}u);\n'
             f'    global uint *cnt = c->state + 48 + 32u * leaf;\n'
             f'    uint before = gsync_ld_relaxed(top) & {TOP};\n'
             f'    if (gsync_add_acqrel(cnt, 1u) == size - 1u) {{\n'
             f'      gsync_st_relaxed(cnt, 0u);\n'
             f'      {arrive_top}(top, leaf == 0 ? {TOP} - (leaves - 1u) : 1u);\n'
             f'    }}\n' + spin('top', sleep, final))
    return (f'void gsync_barrier(private struct gsync_ctx *c, uint site) {{\n'
            f'  global uint *top = c->state + 16;\n  barrier({L});\n'
            f'  if (gsync_leader()) {{\n{inner}  }}\n  barrier({L});\n}}\n')


GEN = f'''void gsync_barrier(private struct gsync_ctx *c, uint site) {{
  global uint *count = c->state + 16;
  global uint *gen = c->state + 48;
  barrier({L});
  if (gsync_leader()) {{
    uint g = gsync_ld_relaxed(gen);
    if (gsync_add_acqrel(count, 1u) == c->groups - 1u) {{
      gsync_st_relaxed(count, 0u);
      gsync_add_release(gen, 1u);
    }} else {{
      while (gsync_ld_acquire(gen) == g)
        ;
    }}
  }}
  barrier({L});
}}
'''
FENCED = ('gsync_device_fence();\n    uint old = atomic_add(word, add);\n'
          '    while (((old ^ {load}) & 0x80000000u) == 0)\n      ;\n'
          '    gsync_device_fence();\n')

CANDIDATES = [
    rule('flip-lb', 'flip with local-fence work-group barriers', 128,
         barrier(L, '    ' + FENCED.format(load='atomic_or(word, 0u)'))),
    rule('flip-vol-lb', 'fence, add, volatile spin, fence (classic grid.sync)', 128,
         barrier(L, '    ' + FENCED.format(load='*(volatile global uint *)word'))),
    rule('flip-ar', 'flip, PTX release add + acquire spin', 128,
         flip_old(G, 'gsync_ld_acquire', '', '', 'gsync_add_release')),
    rule('flip-ar-lb', 'flip-ar with local-fence work-group barriers', 128,
         flip_old(L, 'gsync_ld_acquire', '', '', 'gsync_add_release')),
    rule('flip-rx-lb', 'flip, release add, relaxed spin, acq_rel fence', 128,
         flip_old(L, 'gsync_ld_relaxed', 'gsync_fence_acqrel()', '', 'gsync_add_release')),
    rule('flip-ar-sleep', 'flip-ar-lb with nanosleep 32 in the spin', 128,
         flip_old(L, 'gsync_ld_acquire', '', 'gsync_sleep(32u)', 'gsync_add_release')),
    rule('gen-ar-lb', 'generation counter, PTX acquire/release', 256, GEN),
]
for k in (8, 16, 32):
    CANDIDATES.append(rule(f'tree{k}', f'{k}-group leaves under a flip word', 256,
                           tree(k, 'gsync_add_release', 0, False), 128 // k))
for s in (0, 32, 100):
    CANDIDATES.append(rule(f'f-red-s{s}', f'flip, red arrival, sleep {s}', 128, flip_red(s, False)))
for s in (0, 32):
    CANDIDATES.append(rule(f'f-red-rx-s{s}', f'flip, red, relaxed spin, sleep {s}', 128, flip_red(s, True)))
for k, s, final in ((32, 32, False), (32, 32, True), (16, 32, False), (64, 32, False), (32, 0, False)):
    name = f't{k}-red{"-rx" if final else ""}-s{s}'
    CANDIDATES.append(rule(name, f'{k}-group leaves, red at the top, sleep {s}', 256,
                           tree(k, 'gsync_red_release', s, final), 128 // k))

if __name__ == '__main__':
    out = sys.argv[1] if len(sys.argv) > 1 else '.'
    os.makedirs(out, exist_ok=True)
    for name, text in CANDIDATES:
        open(os.path.join(out, f'barrier-{name}.cl'), 'w').write(text)
    print(' '.join(n for n, _ in CANDIDATES))
