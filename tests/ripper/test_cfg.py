"""ripper/cfg.py: the edges liveness sees, statement expressions included."""
from helpers import HEAD, normalized
from ripper import tree as T
from ripper.cfg import CFG


def graph(body):
    src = HEAD + b"static void task(void *arg) {\n(void)arg;\n" + body + b"\n}\n"
    fn, _, norm = normalized(src, "task")
    locals_ = {n.key for n in fn.body.walk() if isinstance(n, T.VarDecl)}
    return CFG(norm.body, locals_)


def labelled(cfg, name):
    return cfg.labels[name]


def test_a_goto_out_of_a_statement_expression_is_an_edge_from_its_expression():
    cfg = graph(b"int r = ({ if (use(1)) goto out; 2; }); use(r); out: use(0);")
    target = labelled(cfg, "out")
    jumps = [s for s in cfg.steps if any(cfg.steps[e].succs == [target] for e in s.exits)]
    assert jumps


def test_asm_goto_labels_are_edges():
    cfg = graph(b'asm goto ("" :::: out); use(1); out: use(2);')
    target = labelled(cfg, "out")
    assert any(cfg.steps[e].succs == [target] for s in cfg.steps for e in s.exits)


def test_an_await_reads_its_arguments_before_and_writes_its_target_after():
    cfg = graph(b"int x = use(1), y; y = f(x); use(y);")
    awaits = [s for s in cfg.steps if s.await_ is not None]
    assert len(awaits) == 1
    assert awaits[0].uses and awaits[0].kills and not awaits[0].uses_after


def test_a_loop_whose_condition_waits_loops_back_to_the_await():
    cfg = graph(b"int n = 0; while (f(n)) n++;")
    await_ = next(i for i, s in enumerate(cfg.steps) if s.await_ is not None)
    seen, todo = set(), list(cfg.steps[await_].succs)
    while todo:
        i = todo.pop()
        if i in seen:
            continue
        seen.add(i)
        todo += cfg.steps[i].succs
    assert await_ in seen
