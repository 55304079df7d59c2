#!/usr/bin/python3
"""bench/table.py RAW.txt OUT.md [OUT.png]: turns bench/run-gpu.sh's raw
RESULT/DLAUNCH/DISC/STRESS lines into Markdown tables (us per barrier-phase,
median) and, if matplotlib is there, a plot."""
import sys, collections
raw, md = sys.argv[1], sys.argv[2]
png = sys.argv[3] if len(sys.argv) > 3 else None
res = collections.OrderedDict(); disc = []; dlaunch = []; stress = []
for line in open(raw):
    f = line.split()
    if not f: continue
    if f[0] == 'RESULT':
        name = f[1].replace('loop.', '').replace('.nd.cl', '').replace('.cl', '')
        res.setdefault(name, {})[(int(f[2]), int(f[3]))] = (float(f[4]), float(f[5]), int(f[6]))
    elif f[0] == 'DISC':
        disc.append(f[1:])
    elif f[0] == 'DLAUNCH':
        dlaunch.append(f[1:])
    elif f[0] == 'STRESS':
        stress.append(f[1:])
    elif f[0] == 'PSTRESS':  # the same test on PoCL
        stress.append(['PoCL: ' + f[1]] + f[2:])
cfgs = sorted({c for v in res.values() for c in v}, key=lambda c: (c[1], c[0]))
out = []
out.append('| variant | ' + ' | '.join('%d×%d' % c for c in cfgs) + ' |')
out.append('|---|' + '---|' * len(cfgs))
gs = res.get('gridsync', {})
for name, v in res.items():
    cells = []
    for c in cfgs:
        if c not in v: cells.append('—'); continue
        us = v[c][0]
        r = ' (%.2f×)' % (us / gs[c][0]) if c in gs and not name.startswith('gridsync') else ''
        cells.append('%.2f%s' % (us, r))
    out.append('| %s | %s |' % (name, ' | '.join(cells)))
out.append('')
out.append('µs per phase (grid-stride increment of G×L uints + the barrier), median of 7 runs, '
           '(T(2100 phases) − T(100 phases)) / 2000 (atomic-or and volatile: 5 runs, 10 and 110 phases); '
           '(x×) = ratio to CUDA grid.sync() in the same run ("gridsync-again": the same, at the end of the run). '
           '"none" is the same loop with no barrier; "relaunch" is one kernel launch per phase. '
           'OpenCL variants use --no-discovery so exactly G groups take part.')
if disc:
    out += ['', '### Discovery: launch with 0 phases (µs, median of 5) and groups admitted', '',
            '| protocol | groups launched | launch µs | admitted |', '|---|---|---|---|']
    for d in disc:
        out.append('| %s | %s | %s | %s |' % (d[0].replace('loop.', '').replace('.cl', ''), d[1], d[4], d[5]))
if dlaunch:
    full = min(int(d[1]) for d in dlaunch)
    out += ['', '### Discovery: launch with 0 phases against a plain launch of the same groups', '',
            '| protocol | groups launched | × co-resident | discovery µs | plain µs | ratio | admitted | same kernel without discovery (libgsync / raw / raw + event) µs |',
            '|---|---|---|---|---|---|---|---|']
    for d in dlaunch:
        kv = dict(x.split('=') for x in d[8:])
        extra = ' / '.join(kv[k] for k in ('nodisc', 'raw', 'rawev') if k in kv) or '—'
        adm = d[6] if d[6] == d[7] else '%s–%s' % (d[6], d[7])
        out.append('| %s | %s | %d× | %s | %s | %s× | %s | %s |' % (
            d[0].replace('loop.', '').replace('.cl', ''), d[1], int(d[1]) // full, d[3], d[4], d[5], adm, extra))
    out.append('')
    out.append('Medians of 15 rounds, wall time from enqueue to clFinish; each round launches the '
               'discovery kernel (0 phases), then the plain kernel (loop_nobar, 0 phases: every group '
               'returns at once), then the same kernel rewritten with --no-discovery through libgsync, '
               'raw (clEnqueueNDRangeKernel only) and raw with an event the next raw launch waits for.')
if stress:
    out += ['', '### Message-passing stress (plain stores, barrier, read a partner)', '',
            '| variant | groups×L | episodes | stale reads |', '|---|---|---|---|']
    for s in stress:
        kv = dict(x.split('=') for x in s[3:])
        out.append('| %s | %s×%s | %s | %s |' % (s[0].replace('mp.', '').replace('.nd.cl', ''), s[1], s[2], kv['episodes'], kv['stale']))
open(md, 'w').write('\n'.join(out) + '\n')
print('\n'.join(out))
if png:
    import matplotlib; matplotlib.use('Agg'); import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(8, 5))
    c256 = [c for c in cfgs if c[1] == 256]
    for name, v in res.items():
        if name == 'gridsync-again': continue
        ys = [v[c][0] if c in v else None for c in c256]
        if any(y is not None and y > 20 for y in ys): continue  # Xiao-Feng: off the scale
        ax.plot([c[0] for c in c256], ys, marker='o', label=name,
                linewidth=3 if name in ('gridsync', 'tree') else 1.5)
    if 'gridsync' in res:
        g = res['gridsync']
        ax.plot([c[0] for c in c256], [0.8 * g[c][0] if c in g else None for c in c256],
                linestyle='--', color='gray', label='0.8 × gridsync (the goal)')
    ax.set_xlabel('work-groups × 256 items'); ax.set_ylabel('µs per phase (median)')
    ax.set_xscale('log', base=2); ax.set_xticks([c[0] for c in c256]); ax.set_xticklabels([str(c[0]) for c in c256])
    ax.set_title('H100: generated OpenCL barriers vs CUDA grid.sync() vs relaunch\n(Xiao-Feng variants, tens to hundreds of µs, off the scale)')
    ax.legend(fontsize=8); ax.grid(alpha=.3)
    fig.tight_layout(); fig.savefig(png, dpi=110)
