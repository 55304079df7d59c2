#!/usr/bin/python3
"""bench/candidates/make.py DIR: writes the candidate barrier rules measured
on the H100 while choosing the default into DIR, one barrier-NAME.cl each,
for `gsync-rewrite --rules-dir` (rounds 1-2: bench/results/archive/
h100-explore.md; rounds 3-4, issue 12, and the discovery candidates
discovery-NAME.cl up to lf3: bench/results/archive/h100-2026-11-26.md;
lf4 and lf5: bench/results/h100.md). Each starts
with the PTX primitives (NVIDIA, sm_70+) or their OpenCL 1.1 stand-ins, then
its gsync_barrier(). Names: -ar atom.release + ld.acquire; -red red.release
(top bit read before arriving); -rx relaxed spin + one acquire; -sN
nanosleep N; -lb CLK_LOCAL_MEM_FENCE-only work-group barriers; -vol volatile
spin; treeK / tK leaves of K groups; gen: counter + generation word.
The waits of rounds 1-2 are plain spins, as when they were measured: the
spin limit (prelude.cl's gsync_spin_while) does not bound them; from round
3 on every wait goes through gsync_spin_while, as in the shipped rules."""
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


def barrier(fence, inner, setup='global uint *word = gsync_rule_words(c);'):
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
             f'    global uint *cnt = gsync_rule_words(c) + 32 + 32u * leaf;\n'
             f'    uint before = gsync_ld_relaxed(top) & {TOP};\n'
             f'    if (gsync_add_acqrel(cnt, 1u) == size - 1u) {{\n'
             f'      gsync_st_relaxed(cnt, 0u);\n'
             f'      {arrive_top}(top, leaf == 0 ? {TOP} - (leaves - 1u) : 1u);\n'
             f'    }}\n' + spin('top', sleep, final))
    return (f'void gsync_barrier(private struct gsync_ctx *c, uint site) {{\n'
            f'  global uint *top = gsync_rule_words(c);\n  barrier({L});\n'
            f'  if (gsync_leader()) {{\n{inner}  }}\n  barrier({L});\n}}\n')


GEN = f'''void gsync_barrier(private struct gsync_ctx *c, uint site) {{
  global uint *count = gsync_rule_words(c);
  global uint *gen = gsync_rule_words(c) + 32;
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


# Round 3 (issue 12): every wait through the prelude's gsync_spin_while, as
# the shipped rules do, so the bound's cost is in the figures. Hot words on
# their own 128-byte lines: word 32 (flip word, counter or root), 64
# (flag), 96 + 32 k (leaf k).
PRIM3 = r"""#if (defined(__NV_CL_C_VERSION) || defined(cl_nv_pragma_unroll)) && \
    (!defined(GSYNC_NV_SM) || GSYNC_NV_SM >= 70)
#define GSYNC_X_PTX 1
uint gsync_x_ld(global uint *p) {
  uint v;
  asm volatile("ld.relaxed.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"((ulong)p) : "memory");
  return v;
}
uint gsync_x_acq(global uint *p) {
  uint v;
  asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"((ulong)p) : "memory");
  return v;
}
uint gsync_x_add_rel(global uint *p, uint x) {
  uint v;
  asm volatile("atom.release.gpu.global.add.u32 %0, [%1], %2;" : "=r"(v) : "l"((ulong)p), "r"(x) : "memory");
  return v;
}
uint gsync_x_add_rlx(global uint *p, uint x) {
  uint v;
  asm volatile("atom.relaxed.gpu.global.add.u32 %0, [%1], %2;" : "=r"(v) : "l"((ulong)p), "r"(x) : "memory");
  return v;
}
void gsync_x_red_rel(global uint *p, uint x) {
  asm volatile("red.release.gpu.global.add.u32 [%0], %1;" :: "l"((ulong)p), "r"(x) : "memory");
}
void gsync_x_st(global uint *p, uint x) {
  asm volatile("st.relaxed.gpu.global.u32 [%0], %1;" :: "l"((ulong)p), "r"(x) : "memory");
}
void gsync_x_sleep(uint ns) { asm volatile("nanosleep.u32 %0;" :: "r"(ns) : "memory"); }
uint gsync_x_nsm(void) {
  uint n;
  asm volatile("mov.u32 %0, %%nsmid;" : "=r"(n));
  return n;
}
#else
#define GSYNC_X_PTX 0
uint gsync_x_ld(global uint *p) { return atomic_or(p, 0u); }
uint gsync_x_acq(global uint *p) { uint v = atomic_or(p, 0u); gsync_device_fence(); return v; }
uint gsync_x_add_rel(global uint *p, uint x) { gsync_device_fence(); return atomic_add(p, x); }
uint gsync_x_add_rlx(global uint *p, uint x) { return atomic_add(p, x); }
void gsync_x_red_rel(global uint *p, uint x) { gsync_device_fence(); atomic_add(p, x); }
void gsync_x_st(global uint *p, uint x) { atomic_xchg(p, x); }
void gsync_x_sleep(uint ns) {}
uint gsync_x_nsm(void) { return 0u; }
#endif
#define GSYNC_X_TOP 0x80000000u
/* What participant (or leaf) `member` of n adds to a flip word. */
uint gsync_x_flip_add(uint member, uint n) { return member == 0u ? GSYNC_X_TOP - (n - 1u) : 1u; }
/* Adds before this one, from the value w a flip word of n adders held. */
uint gsync_x_adds(uint w, uint n) {
  uint low = w & 0x7fffffffu;
  return low < n ? low : n - (GSYNC_X_TOP - low);
}
/* p, through an address the hardware knows only once v has come back:
 * a load through it is issued after the atomic that returned v. A flip
 * word's low bits never hold 2^30 while fewer than 2^30 groups add. */
global uint *gsync_x_after(global uint *p, uint v) {
  return (v & 0x7fffffffu) == 0x40000000u ? p + 1 : p;
}
/* Participating groups per compute unit, rounded up; 0 when unknown. */
uint gsync_x_density(uint groups) {
  uint n = gsync_x_nsm();
  return n ? (groups + n - 1u) / n : 0u;
}
/* Whether the word p still shows top bit t; if so, naps ns first. */
int gsync_x_waiting(global uint *p, uint t, uint ns) {
  if ((gsync_x_ld(p) & GSYNC_X_TOP) != t)
    return 0;
  if (ns)
    gsync_x_sleep(ns);
  return 1;
}
/* The same with a nap that doubles up to 1024 ns. */
int gsync_x_waiting_exp(global uint *p, uint t, private uint *ns) {
  if ((gsync_x_ld(p) & GSYNC_X_TOP) != t)
    return 0;
  gsync_x_sleep(*ns);
  *ns = min(*ns * 2u, 1024u);
  return 1;
}
uint gsync_x_flat_arrived(private struct gsync_ctx *c) {
  return gsync_x_adds(atomic_or(gsync_rule_words(c) + 16, 0u), c->groups);
}
uint gsync_x_tree_arrived(private struct gsync_ctx *c, uint k) {
  uint n = 0, leaves = (c->groups + k - 1u) / k;
  for (uint l = 0; l < leaves; l++)
    n += gsync_x_adds(atomic_or(gsync_rule_words(c) + 80 + 32u * l, 0u), min(k, c->groups - l * k));
  return n;
}
"""
G3 = 'CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE'


def rule3(name, summary, fixed, body, per_group=None):
    head = (f'/* barrier-{name}: a candidate (bench/candidates/make.py, round 3).\n *\n'
            f' * @summary {summary}\n * @opencl-c 1.1\n'
            f' * @extension cl_khr_global_int32_base_atomics\n'
            f' * @state-fixed {fixed}\n')
    if per_group:
        head += f' * @state-per-group {per_group}\n'
    return name, head + ' */\n' + PRIM3 + body


def one_thread(inner, setup='global uint *w = gsync_rule_words(c) + 16;'):
    """The shipped shape: local id 0 alone, between two work-group barriers."""
    return (f'  {setup}\n  barrier({G3});\n  if (get_local_id(0) == 0) {{\n'
            f'{inner}  }}\n  barrier({G3});\n')


def fn(body):
    return f'void gsync_barrier(private struct gsync_ctx *c, uint site) {{\n{body}}}\n'


# W: grid.sync's word, first poll only once the add has come back, PRE a
# statement run before the first poll (a nap), NAP ns between polls.
def w_inner(pre='', nap='0u', exp=False):
    spin = ('    uint nap = 32u;\n    gsync_spin_while(c, site, gsync_x_waiting_exp(p, t, &nap), gsync_x_flat_arrived(c));\n'
            if exp else
            f'    gsync_spin_while(c, site, gsync_x_waiting(p, t, {nap}), gsync_x_flat_arrived(c));\n')
    return ('    uint old = gsync_x_add_rel(w, gsync_x_flip_add(c->group, c->groups));\n'
            '    uint t = old & GSYNC_X_TOP;\n'
            '    global uint *p = gsync_x_after(w, old);\n' + pre + spin +
            '    gsync_x_acq(w);\n')


PRE_REM = lambda sh: (f'    gsync_x_sleep(min((c->groups - 1u - gsync_x_adds(old, c->groups)) >> {sh}, 512u));\n')
PRE_AUTO = ('    uint d = gsync_x_density(c->groups);\n'
            '    if (d > 1u)\n      gsync_x_sleep(d <= 2u ? 50u : d <= 4u ? 100u : 200u);\n')

# Per-warp polling: every work-item reads the word's top bit before its
# group arrives (it cannot flip before that), local id 0 adds, and after a
# second work-group barrier (which waits for the add to come back) every
# warp polls the word itself and acquires; no closing work-group barrier.
PW = ('  global uint *w = gsync_rule_words(c) + 16;\n'
      '  uint t = gsync_x_ld(w) & GSYNC_X_TOP;\n'
      f'  barrier({G3});\n'
      '  if (get_local_id(0) == 0) {\n'
      '    uint old = gsync_x_add_rel(w, gsync_x_flip_add(c->group, c->groups));\n'
      '    if ((old & 0x7fffffffu) == 0x40000000u) /* never: waits for the add */\n'
      '      *c->left = 0u;\n'
      '  }\n'
      '  barrier(CLK_LOCAL_MEM_FENCE);\n'
      '  gsync_spin_while(c, site, gsync_x_waiting(w, t, 0u), gsync_x_flat_arrived(c));\n'
      '  gsync_x_acq(w);\n')


def pw_gate(other):
    return ('#if GSYNC_X_PTX\n'
            '  if (gsync_x_density(c->groups) <= 1u && get_local_size(0) <= 256u) {\n'
            + ''.join('  ' + l + '\n' for l in PW.rstrip('\n').split('\n')) +
            '    return;\n  }\n#endif\n' + other)


# F2 / FA: a counter (word 32) and a flag (word 64) on separate lines. The
# flag's top bit is read before arriving; the last arriver flips it with
# a relaxed store. F2 then acquires the flag (operational: the relaxed
# store carries no release); FA acquires the counter until it shows the
# completed barrier (formal: the counter's RMWs are every group's release).
def f_inner(formal, pre=''):
    tail = ('    gsync_spin_while(c, site, (gsync_x_acq(cnt) & GSYNC_X_TOP) == tc, gsync_x_flat_arrived(c));\n'
            if formal else '    gsync_x_acq(flag);\n')
    return ('    uint t = gsync_x_ld(flag) & GSYNC_X_TOP;\n'
            '    uint add = gsync_x_flip_add(c->group, c->groups);\n'
            '    uint old = gsync_x_add_rel(cnt, add);\n'
            '    uint tc = old & GSYNC_X_TOP;\n'
            '    if (((old + add) & 0x7fffffffu) == 0u) {\n'
            '      gsync_x_st(flag, t ^ GSYNC_X_TOP);\n'
            '    } else {\n'
            '      global uint *p = gsync_x_after(flag, old);\n' + pre +
            '      gsync_spin_while(c, site, gsync_x_waiting(p, t, 0u), gsync_x_flat_arrived(c));\n'
            '    }\n' + tail)


F_SETUP = 'global uint *cnt = gsync_rule_words(c) + 16, *flag = gsync_rule_words(c) + 48;'


# S: leaves of K groups (words 96 + 32 k), leaf add with release (the
# group's one fence), the leaf's last arriver adds relaxed to the root
# (word 32), the root's last flips the flag (word 64) relaxed. Operational.
def s_inner(k, pre=''):
    return (f'    uint leaf = c->group / {k}u, leaves = (c->groups + {k - 1}u) / {k}u;\n'
            f'    uint size = min({k}u, c->groups - leaf * {k}u);\n'
            '    global uint *lc = gsync_rule_words(c) + 80 + 32u * leaf;\n'
            '    uint t = gsync_x_ld(flag) & GSYNC_X_TOP;\n'
            f'    uint add = gsync_x_flip_add(c->group % {k}u, size);\n'
            '    uint old = gsync_x_add_rel(lc, add);\n'
            '    int done = 0;\n'
            '    if (((old + add) & 0x7fffffffu) == 0u) {\n'
            '      uint radd = gsync_x_flip_add(leaf, leaves);\n'
            '      uint r = gsync_x_add_rlx(root, radd);\n'
            '      if (((r + radd) & 0x7fffffffu) == 0u) {\n'
            '        gsync_x_st(flag, t ^ GSYNC_X_TOP);\n'
            '        done = 1;\n'
            '      }\n'
            '    }\n'
            '    if (!done) {\n'
            '      global uint *p = gsync_x_after(flag, old);\n' + pre +
            f'      gsync_spin_while(c, site, gsync_x_waiting(p, t, 0u), gsync_x_tree_arrived(c, {k}u));\n'
            '    }\n'
            '    gsync_x_acq(flag);\n')


S_SETUP = 'global uint *root = gsync_rule_words(c) + 16, *flag = gsync_rule_words(c) + 48;'

RED_ACQ = ('    uint t = gsync_x_ld(w) & GSYNC_X_TOP;\n'
           '    gsync_x_red_rel(w, gsync_x_flip_add(c->group, c->groups));\n'
           '    gsync_spin_while(c, site, (gsync_x_acq(w) & GSYNC_X_TOP) == t, gsync_x_flat_arrived(c));\n')
FENCE1 = ('    gsync_device_fence();\n'
          '    uint old = atomic_add(w, gsync_x_flip_add(c->group, c->groups));\n'
          '    gsync_spin_while(c, site, ((atomic_or(w, 0u) ^ old) & GSYNC_X_TOP) == 0u, gsync_x_flat_arrived(c));\n'
          '    gsync_x_acq(w);\n')


def hyb_o():
    """pw at <= 1 group per compute unit, W with a nap by density up to 4,
    S (32-group leaves) above."""
    s_part = one_thread(s_inner(32), S_SETUP)
    w_part = one_thread(w_inner(PRE_AUTO))
    return pw_gate('#if GSYNC_X_PTX\n  if (gsync_x_density(c->groups) > 4u) {\n'
                   + ''.join('  ' + l + '\n' for l in s_part.rstrip('\n').split('\n')) +
                   '    return;\n  }\n#endif\n' + w_part)


ROUND3 = [
    rule3('red-acq', 'flip word, red.release arrival, ld.acquire polls', 128, fn(one_thread(RED_ACQ))),
    rule3('fence1', 'flip word, one membar.gl before an atomic add, atomic polls, ld.acquire', 128, fn(one_thread(FENCE1))),
    rule3('w', 'flip word, atom.release, first poll after the add returns', 128, fn(one_thread(w_inner()))),
    rule3('w-s32', 'w + nanosleep 32 between polls', 128, fn(one_thread(w_inner(nap='32u')))),
    rule3('w-exp', 'w + back-off 32..1024 ns between polls', 128, fn(one_thread(w_inner(exp=True)))),
    rule3('w-p50', 'w + 50 ns nap before the first poll', 128, fn(one_thread(w_inner('    gsync_x_sleep(50u);\n')))),
    rule3('w-p100', 'w + 100 ns nap before the first poll', 128, fn(one_thread(w_inner('    gsync_x_sleep(100u);\n')))),
    rule3('w-p200', 'w + 200 ns nap before the first poll', 128, fn(one_thread(w_inner('    gsync_x_sleep(200u);\n')))),
    rule3('w-rem1', 'w + nap of (arrivals still due) / 2 ns', 128, fn(one_thread(w_inner(PRE_REM(1))))),
    rule3('w-rem2', 'w + nap of (arrivals still due) / 4 ns', 128, fn(one_thread(w_inner(PRE_REM(2))))),
    rule3('w-auto', 'w + nap by groups per compute unit (0/50/100/200 ns)', 128, fn(one_thread(w_inner(PRE_AUTO)))),
    rule3('pw', 'flip word, every warp polls, no closing work-group barrier', 128,
          fn('#if GSYNC_X_PTX\n' + PW + '#else\n' + one_thread(w_inner()) + '#endif\n')),
    rule3('pw-auto', 'pw at <= 1 group per compute unit (<= 256 items), else w-auto', 128,
          fn(pw_gate(one_thread(w_inner(PRE_AUTO))))),
    rule3('f2', 'counter + flag lines, relaxed flag, acquire the flag (operational)', 256,
          fn(one_thread(f_inner(False), F_SETUP))),
    rule3('f2-p200', 'f2 + 200 ns nap before the first poll', 256,
          fn(one_thread(f_inner(False, '      gsync_x_sleep(200u);\n'), F_SETUP))),
    rule3('fa', 'counter + flag lines, relaxed flag, acquire the counter (formal)', 256,
          fn(one_thread(f_inner(True), F_SETUP))),
    rule3('s32', '32-group leaves, relaxed root and flag (operational)', 448,
          fn(one_thread(s_inner(32), S_SETUP)), 4),
    rule3('s32-p200', 's32 + 200 ns nap before the first poll', 448,
          fn(one_thread(s_inner(32, '      gsync_x_sleep(200u);\n'), S_SETUP)), 4),
    rule3('s16', '16-group leaves, relaxed root and flag (operational)', 448,
          fn(one_thread(s_inner(16), S_SETUP)), 8),
    rule3('hyb-o', 'pw <= 1 group per compute unit, w-auto <= 4, s32 above', 448, fn(hyb_o()), 4),
]
# pw-auto with the compute-unit count fixed at the H100's 132 instead of
# read from %nsmid.
_pw = [r for r in ROUND3 if r[0] == 'pw-auto'][0][1]
ROUND3.append(('pw-auto-c', _pw.replace('barrier-pw-auto:', 'barrier-pw-auto-c:').replace(
    'asm volatile("mov.u32 %0, %%nsmid;" : "=r"(n));', 'n = 132u;')))

# Round 4: the arrival is atom.acq_rel, so the group whose add completes
# the barrier has acquired every other group's release with it and does
# not poll at all; the others poll with ld.acquire (no final load) or, in
# wr-*, relaxed then one ld.acquire. -rt: nap before the first poll of
# (arrivals still due) / 2 ns (at most 512), only when 128 or more are due.
PRIM4 = PRIM3.replace('uint gsync_x_add_rlx(', r"""uint gsync_x_add_ar(global uint *p, uint x) {
  uint v;
  asm volatile("atom.acq_rel.gpu.global.add.u32 %0, [%1], %2;" : "=r"(v) : "l"((ulong)p), "r"(x) : "memory");
  return v;
}
uint gsync_x_add_rlx(""", 1).replace('uint gsync_x_add_rlx(global uint *p, uint x) { return atomic_add(p, x); }',
    'uint gsync_x_add_rlx(global uint *p, uint x) { return atomic_add(p, x); }\n'
    'uint gsync_x_add_ar(global uint *p, uint x) { gsync_device_fence(); uint v = atomic_add(p, x); gsync_device_fence(); return v; }', 1) + r"""
/* Whether the word p still shows top bit t, read with acquire. */
int gsync_x_waiting_acq(global uint *p, uint t) {
  return (gsync_x_acq(p) & GSYNC_X_TOP) == t;
}
"""


def rule4(name, summary, body):
    n, text = rule3(name, summary, 128, body)
    return n, text.replace(PRIM3, PRIM4).replace('round 3', 'round 4')


def pre_due(threshold, num, den, cap):
    return ('    uint due = c->groups - 1u - gsync_x_adds(old, c->groups);\n'
            f'    if (due >= {threshold}u)\n'
            f'      gsync_x_sleep(min(due * {num}u / {den}u, {cap}u));\n')


def wa_inner(pre='', acquire_polls=True, arrive='gsync_x_add_ar', shortcut=True):
    spin = ('    gsync_spin_while(c, site, gsync_x_waiting_acq(p, t), gsync_x_flat_arrived(c));\n'
            if acquire_polls else
            '    gsync_spin_while(c, site, gsync_x_waiting(p, t, 0u), gsync_x_flat_arrived(c));\n'
            '    gsync_x_acq(w);\n')
    body = ('    uint t = old & GSYNC_X_TOP;\n'
            '    global uint *p = gsync_x_after(w, old);\n' + pre + spin)
    head = ('    uint add = gsync_x_flip_add(c->group, c->groups);\n'
            f'    uint old = {arrive}(w, add);\n')
    if shortcut:
        return head + '    if (((old + add) & 0x7fffffffu) != 0u) {\n' + \
            ''.join('  ' + l + '\n' for l in body.rstrip('\n').split('\n')) + '    }\n'
    return head + body


RT1 = pre_due(128, 1, 2, 512)
ROUND4 = [
    rule4('w-rt1', 'w (atom.release, relaxed polls) + nap by arrivals due, from 128', fn(one_thread(wa_inner(RT1, False, 'gsync_x_add_rel', False)))),
    rule4('wr-rt1', 'atom.acq_rel, the completing group skips the poll, relaxed polls, nap from 128 due', fn(one_thread(wa_inner(RT1, False)))),
    rule4('wa', 'atom.acq_rel, the completing group skips the poll, ld.acquire polls', fn(one_thread(wa_inner()))),
    rule4('wa-rem1', 'wa + nap (arrivals due) / 2 ns', fn(one_thread(wa_inner(pre_due(1, 1, 2, 512))))),
    rule4('wa-rt1', 'wa + nap (arrivals due) / 2 ns from 128 due', fn(one_thread(wa_inner(RT1)))),
    rule4('wa-rt3', 'wa + nap 3/4 (arrivals due) ns from 128 due, at most 800', fn(one_thread(wa_inner(pre_due(128, 3, 4, 800))))),
    rule4('wa-rt64', 'wa + nap (arrivals due) / 2 ns from 64 due', fn(one_thread(wa_inner(pre_due(64, 1, 2, 512))))),
]

# Discovery candidates (discovery-lf2.cl.in): name, polls the count must
# stay still before participant 0 closes the poll, ns between those polls.
DISCOVERY = [('lf2-k4', 4, 100), ('lf2-k8', 8, 100), ('lf2-k16', 16, 100),
             ('lf2-k32', 32, 100), ('lf2-k64n0', 64, 0)]
# discovery-lf3.cl.in: one load and, for a group that does not take part,
# one reduction that returns nothing; name, still polls, ns between them.
DISCOVERY3 = [('lf3-k4', 4, 100), ('lf3-k8', 8, 100), ('lf3-k2', 2, 100)]
# discovery-lf4.cl.in: one atomic increment per group, the last launched
# group resets; name, still polls, ns between them, ns between the other
# participants' polls.
# lf5-k4-pP: lf4-k4, but P still polls once as many groups have come as
# took part in the last launch (state word 5).
DISCOVERY4 = [('lf4-k4', 4, 100, 200, 1000), ('lf4-k2', 2, 100, 200, 1000),
              ('lf4-k4-w50', 4, 100, 50, 1000), ('lf5-k4-p1', 4, 100, 200, 1),
              ('lf5-k4-p0', 4, 100, 200, 0)]
# lf6-cN: the shipped rule (rewrite-rules/discovery-lockfree.cl) with the
# cap of its word 32 fixed at N: groups with a launch id of N or more leave
# at once, the first N are polled (what libgsync's cap does, without it).
DISCOVERY6 = [1056, 1089, 1122]
# floor-relaxed: NOT a correct barrier. The shipped tree's NVIDIA path with
# its arrival and polls relaxed (atom.relaxed.gpu, ld.relaxed.gpu): no
# release fence, no acquire, so the stress test must see stale reads. Its
# time is what the tree's structure costs without the memory ordering
# that a correct barrier cannot leave out: a floor for any design that
# arrives and polls as it does (bench/results/h100.md).
# floor-release: NOT correct either (no acquire): the arrival a release
# (atom.release.gpu, the one MEMBAR a group's writes need before others
# may see them), the polls relaxed. Its time less floor-relaxed's is what
# the release alone costs.
FLOOR = [('floor-relaxed', [('atom.acq_rel.gpu', 'atom.relaxed.gpu'),
                            ('ld.acquire.gpu', 'ld.relaxed.gpu')]),
         ('floor-release', [('atom.acq_rel.gpu', 'atom.release.gpu'),
                            ('ld.acquire.gpu', 'ld.relaxed.gpu')])]

if __name__ == '__main__':
    out = sys.argv[1] if len(sys.argv) > 1 else '.'
    os.makedirs(out, exist_ok=True)
    for name, text in CANDIDATES + ROUND3 + ROUND4:
        open(os.path.join(out, f'barrier-{name}.cl'), 'w').write(text)
    tpl = open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'discovery-lf2.cl.in')).read()
    for name, still, nap in DISCOVERY:
        text = tpl.replace('@NAME@', name).replace('@STILL@', str(still)).replace('@NAP@', str(nap)).replace('@WAITNAP@', '200')
        open(os.path.join(out, f'discovery-{name}.cl'), 'w').write(text)
    tpl = open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'discovery-lf3.cl.in')).read()
    for name, still, nap in DISCOVERY3:
        text = tpl.replace('@NAME@', name).replace('@STILL@', str(still)).replace('@NAP@', str(nap)).replace('@WAITNAP@', '200')
        open(os.path.join(out, f'discovery-{name}.cl'), 'w').write(text)
    tpl = open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'discovery-lf4.cl.in')).read()
    for name, still, nap, waitnap, prev in DISCOVERY4:
        text = tpl.replace('@NAME@', name).replace('@STILL@', str(still)).replace('@NAP@', str(nap)).replace('@WAITNAP@', str(waitnap)).replace('@PREVSTILL@', str(prev))
        open(os.path.join(out, f'discovery-{name}.cl'), 'w').write(text)
    here = os.path.dirname(os.path.abspath(__file__))
    shipped = open(os.path.join(here, '..', '..', 'rewrite-rules', 'discovery-lockfree.cl')).read()
    assert 'cap = s[32];' in shipped
    for cap in DISCOVERY6:
        name = f'lf6-c{cap}'
        text = shipped.replace('discovery-lockfree:', f'discovery-{name}: a candidate (bench/candidates/make.py), cap {cap};', 1).replace('cap = s[32];', f'cap = {cap}u;')
        open(os.path.join(out, f'discovery-{name}.cl'), 'w').write(text)
    tree = open(os.path.join(here, '..', '..', 'rewrite-rules', 'barrier-tree.cl')).read()
    for name, subs in FLOOR:
        text = tree.replace('barrier-tree:', f'barrier-{name}: a candidate (bench/candidates/make.py), NOT correct;', 1)
        for old, new in subs:
            assert old in text
            text = text.replace(old, new)
        open(os.path.join(out, f'barrier-{name}.cl'), 'w').write(text)
    print(' '.join(n for n, _ in CANDIDATES + ROUND3 + ROUND4))
