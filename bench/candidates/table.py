#!/usr/bin/python3
"""bench/candidates/table.py [--first N] RAW.txt... : one Markdown table of every
candidate in the raw outputs of bench/candidates/run-gpu.sh (one file per
device call, "round", numbered from N, default 1): us per barrier-phase at each configuration with the
ratio to CUDA grid.sync() measured in the same file, and the stale reads of
the message-passing stress test (10^5 episodes per configuration; the
configurations in the order of the header, 256 items first)."""
import sys, collections
rows = collections.OrderedDict()
cfgs = []
args = sys.argv[1:]
first = 1
if args[:1] == ['--first']:
    first, args = int(args[1]), args[2:]
for rnd, path in enumerate(args, first):
    gs, stale, rc = {}, collections.defaultdict(list), {}
    for line in open(path):
        f = line.split()
        if not f:
            continue
        if f[0] == 'RESULT':
            name = f[1].replace('loop.', '').replace('.nd.cl', '')
            c = (int(f[2]), int(f[3]))
            if c not in cfgs:
                cfgs.append(c)
            if name == 'gridsync':
                gs.setdefault(c, float(f[4]))
            elif name not in ('relaunch', 'none'):
                rows.setdefault((rnd, name), {})[c] = float(f[4])
        elif f[0] == 'STRESS':
            name = f[1].replace('mp.', '').replace('.nd.cl', '')
            kv = dict(x.split('=') for x in f[4:] if '=' in x)
            stale[name].append(int(kv['stale']))
        elif f[0] == 'stress' and len(f) == 3:
            rc[f[1]] = f[2]
    for (r, name), v in rows.items():
        if r == rnd:
            v['gs'] = dict(gs)
            v['stale'] = stale.get(name, [])
            v['ncfg'] = len({(int(l.split()[2]), int(l.split()[3])) for l in open(path)
                             if l.startswith('RESULT gridsync ')})
    rows[(rnd, 'noop (control)')] = {'gs': gs, 'stale': stale.get('noop', [])}
cfgs.sort(key=lambda c: (c[1], c[0]))
out = ['| round | candidate | ' + ' | '.join('%d×%d' % c for c in cfgs) + ' | stale reads |',
       '|---|---|' + '---|' * (len(cfgs) + 1)]
for (rnd, name), v in rows.items():
    cells = []
    for c in cfgs:
        if c in v and c in v['gs']:
            cells.append('%.2f (%.2f×)' % (v[c], v[c] / v['gs'][c]))
        elif c in v:
            cells.append('%.2f' % v[c])
        else:
            cells.append('—')
    st = v['stale']
    if not st:
        s = 'not run'
    elif all(x == 0 for x in st):
        s = '0 (%d configs)' % len(st)
        if len(st) < v.get('ncfg', len(st)):
            s += ('; the next launch timed out (spin limit): the mp kernel'
                  ' with this rule holds fewer groups per SM')
    else:
        s = ', '.join('%.2g' % x for x in st)
    out.append('| %d | %s | %s | %s |' % (rnd, name, ' | '.join(cells), s))
print('\n'.join(out))
