"""liveness.py -- which variables of an async function live in its frame.

A variable needs the frame only if its value may be read after some
suspension without being written first (it is live across the
suspension), or if its address may be kept (`&x`, an array, a struct
holding one).  Temporaries that normalize.py made are variables like any
other.  Everything else stays a plain C local of the resume entry.

    RIP_ASYNC int sum(int n) {          frame: n (a parameter), total (read
        int total = 0, i, tmp;             after the suspension); i is live
        for (i = 0; i < n; i++) {          across it too.  tmp: written and
            tmp = i * i;                   read between two suspensions: a
            total += tmp;                  C local.
            rip_yield();
        }
        return total;
    }

The analysis is a backward dataflow over cfg.py's graph.
"""

from .cfg import CFG


def frame_variables(body, candidates):
    """Keys among `candidates` ({key: CType or None}) that must live in
    the frame of the function whose normalized body is `body`."""
    return set(frame_reasons(body, candidates))


def frame_reasons(body, candidates):
    """frame_variables, with why each must live in the frame: {key: why},
    why "address" (its address may be kept), "array" (an array, or a
    struct or union holding one) or the list of Awaits across which its
    value is live (read after the suspension, not written first), in the
    body's order.

        int total = 0; ... Await(rip_yield()); ... total += i;  ->  {total: [<Await rip_yield>]}
    """
    cfg = CFG(body, set(candidates))
    live_in = _solve(cfg.steps)
    why = {}
    for key, ctype in candidates.items():
        if key in cfg.escaping:
            why[key] = "address"
        elif ctype is not None and _holds_array(ctype):
            why[key] = "array"      # arrays decay to pointers, inside structs too
    for s in cfg.steps:
        if s.await_ is not None:
            out = set()
            for j in s.succs + s.exits:
                out |= live_in[j]
            for key in (s.uses_after | (out - s.kills)) & candidates.keys():
                held = why.setdefault(key, [])
                if isinstance(held, list) and all(a is not s.await_ for a in held):
                    held.append(s.await_)
    for held in why.values():
        if isinstance(held, list):
            held.sort(key=lambda a: a.call.start if a.call is not None else a.start)
    return why


def _solve(steps):
    """Variables live into each step: a worklist that revisits only the
    steps before one whose set grew (each set only grows), latest first,
    as a backward analysis wants."""
    preds = [[] for _ in steps]
    for i, s in enumerate(steps):
        for j in s.succs:
            preds[j].append(i)
        for j in s.exits:
            preds[j].append(i)
    live_in = [set() for _ in steps]
    work = list(range(len(steps)))
    queued = [True] * len(steps)
    while work:
        i = work.pop()
        queued[i] = False
        s = steps[i]
        out = set()
        for j in s.succs:
            out |= live_in[j]
        new = s.uses | s.uses_after | (out - s.kills)
        for j in s.exits:
            new |= live_in[j]
        if new != live_in[i]:
            live_in[i] = new
            for p in preds[i]:
                if not queued[p]:
                    queued[p] = True
                    work.append(p)
    return live_in


def _holds_array(t, depth=0):
    """Is `t` an array, or a struct or union with an array inside?"""
    if t.array:
        return True
    if t.record and t.members and depth < 10:
        return any(m is not None and _holds_array(m, depth + 1) for _, m in t.members)
    return False
