# rip-gdb.py -- gdb's view of a program built with ripper's runtime.
#
# Every program linked with the runtime carries this script in its
# .debug_gdb_scripts section (runtime/src/shared/gdb_script.h), so gdb
# loads it with the program once the program's folder is on gdb's
# `auto-load safe-path`.  It reads the runtime's own structures, from a
# live process or a core file alike, and calls nothing in the program:
#
#   rip tasks          every task of every worker: its state, what it waits
#                      on, its call chain (as rip_dump_tasks prints them)
#   rip bt N           task N's chain (N as `rip tasks` numbers them, or a
#                      task's address), each level with its variables
#   rip print EXPR     EXPR, where the names of a ripped function's locals
#   rip p EXPR         mean the user's variables (kept in its frame)
#
# and a frame filter: `bt` names a ripped function as the source does
# (`f`, not `rip__resume_f`), with its variables by their source names and
# the suspended callers of a resumed one.
#
# The format of `rip tasks` is rip_dump_tasks' (runtime/src/core/dump.c),
# with the tasks numbered, and two differences: a core has no clock, so a
# timer says when it is due, not in how long; on ucontext and threads the
# chain is the task's stack (a switched-out context's unwound from its
# saved registers), which gdb can walk and the program cannot.

import re
import time

import gdb

RESUME = "rip__resume_"             # ripper/abi.py: a ripped function's resume entry
FRAME_STRUCT = "rip__frame_"        # ... and its frame's struct
VARS = "rip__vars_"                 # ... and its table of renamed and block variables
RUNTIME_FILES = re.compile(r"(^|/)runtime/src/(core|rip|ucontext|threads|shared)/[^/]+$")


def _loaded():
    """Registered once, however many objfiles carry the script."""
    return getattr(gdb, "_rip_gdb_loaded", False)


# ---- reading the program ----------------------------------------------

def _static(name, path_end):
    """The value of file-scope variable `name` of the runtime's source
    file ending in `path_end` (thread-local ones: the selected thread's)."""
    for sym in gdb.lookup_static_symbols(name):
        if sym.symtab and sym.symtab.filename.endswith(path_end):
            return sym.value()
    sym = gdb.lookup_global_symbol(name)
    if sym is None:
        raise gdb.GdbError("rip: no symbol %s in the runtime (built without -g?)" % name)
    return sym.value()


def _has(name):
    return gdb.lookup_global_symbol(name) is not None or \
        gdb.lookup_static_symbol(name) is not None


def backend():
    """'rip', 'ucontext', 'threads', or None (no ripper runtime here)."""
    if _has("rip_thr_dump"):
        return "threads"
    if _has("rip__pool"):
        return "rip"
    if _has("rip__sched"):
        return "ucontext"
    return None


def _ptr(v):
    return int(v.cast(_once("ulong", lambda: gdb.lookup_type("unsigned long"))))


def _hex(n):
    return "0x%x" % n if n else "(nil)"


def _string(v):
    try:
        return v.string() if _ptr(v) else None
    except gdb.MemoryError:
        return None


def _live():
    """A live process (its clock is ours), not a core file."""
    conn = getattr(gdb.selected_inferior(), "connection", None)
    if conn is not None:
        return conn.type == "native"    # (not "core", nor a remote machine's clock)
    return "core file" not in gdb.execute("info target", to_string=True)


def _now_ms():
    return int(time.clock_gettime(time.CLOCK_MONOTONIC) * 1000)


def _list(head, link="next"):
    """The nodes of a NULL-terminated list from pointer `head`."""
    seen = set()
    while _ptr(head) and _ptr(head) not in seen:
        seen.add(_ptr(head))
        yield head
        head = head.dereference()[link]


# ---- the rip backend's frames -----------------------------------------

_infos = {}                         # (table's address, process) -> {resume entry: (name, file, lines)}
_memo = {}                          # what one command looks up once: cleared as each begins


def _once(key, make):
    if key not in _memo:
        _memo[key] = make()
    return _memo[key]


def _fninfo():
    return _once("fninfo", _read_fninfo)


def _read_fninfo():
    """The tables ripper emits for every ripped function (rip_frame.h's
    struct rip__fninfo), by resume entry: read from the program's section
    as the runtime reads them, so the program needs no -g."""
    out = {}
    try:
        info_t = gdb.lookup_type("struct rip__fninfo")
        start = gdb.parse_and_eval("&__start_rip__fninfo").cast(info_t.pointer())
        stop = gdb.parse_and_eval("&__stop_rip__fninfo").cast(info_t.pointer())
    except gdb.error:
        return out                  # no table: levels print as unknown
    key = (_ptr(start), gdb.selected_inferior().pid)
    if key in _infos:
        return _infos[key]
    try:
        for i in range((_ptr(stop) - _ptr(start)) // info_t.sizeof):
            e = start[i]
            lines = [int(e["lines"][k]) for k in range(int(e["points"]))] if _ptr(e["lines"]) else []
            out[_ptr(e["resume"])] = (_string(e["name"]), _string(e["file"]), lines)
    except gdb.error:
        pass
    _infos[key] = out
    return out


def _room():
    return _once("room", _read_room)


def _read_room():
    """Bytes of a task before its first frame (rip/sched.c's ROOM)."""
    task_t = gdb.lookup_type("struct rip__task")
    impl = [f for f in task_t.fields() if f.name == "impl"][0]
    at = impl.bitpos // 8
    ptr = gdb.lookup_type("void").pointer().sizeof
    return at if at + ptr == task_t.sizeof else task_t.sizeof


def _frames(task):
    """A suspended rip task's frames, innermost first."""
    frame_t = _once("frame_t", lambda: gdb.lookup_type("struct rip__frame").pointer())
    first = _ptr(task) + _room()
    f = task["impl"].cast(frame_t)
    out = []
    while _ptr(f) and len(out) < 100000:
        out.append(f)
        if _ptr(f) == first:
            break
        f = f["parent"]
    return out


def _level_text(f, running):
    """One level of a chain as rip_dump_tasks prints it, or None for the
    runtime's own frames."""
    resume = _ptr(f["resume"])
    info = _fninfo().get(resume)
    if info is None:
        return ("    ? (resume entry %s: no line table; ripped by an older ripper, "
                "or in a shared object)" % _hex(resume))
    name, file, lines = info
    if file is None:
        return None
    if running:
        return "    %s (%s, running)" % (name, file)
    state = int(f["state"])
    if 0 <= state < len(lines):
        return "    %s (%s:%d)" % (name, file, lines[state])
    return "    %s (%s, resume point %d)" % (name, file, state)


def _frame_struct(resume):
    """The struct type of the frame whose resume entry is at `resume`,
    found in that function's own scope (two files may both have a static f)."""
    try:
        block = gdb.block_for_pc(resume)
    except RuntimeError:
        block = None
    if block is None or block.function is None:
        return None, None
    fn = block.function.name
    if not fn.startswith(RESUME):
        return None, None
    try:
        return gdb.lookup_type("struct " + FRAME_STRUCT + fn[len(RESUME):], block), block
    except gdb.error:
        return None, block


def _table(block, fn_name):
    """(field -> (source name, first line, last line), [the parameters'
    fields]) from the function's table (ripper's frame.py var_table):
    the fields renamed or of a block; the others are the variables of
    their own names, in scope in the whole function."""
    renames, params = {}, []
    sym = gdb.lookup_symbol(VARS + fn_name, block)[0] if block is not None else None
    if sym is None:
        return renames, params
    try:
        table = sym.value()
        for i in range(table.type.range()[1] + 1):
            row = _string(table[i])
            if row is None:
                break
            words = row.split()
            if words[0] == "=":
                params = words[1:]
            else:
                renames[words[0]] = (words[1], int(words[2]), int(words[3]))
    except (gdb.error, ValueError, IndexError):
        pass
    return renames, params


def _renames(block, fn_name):
    return _table(block, fn_name)[0]


def _user_fields(frame_type, renames, line=None):
    """(source name, field) of each user variable in a frame struct (in
    scope at `line`, if given: a block's variable only in its block)."""
    out = []
    for field in frame_type.fields():
        if field.name is None or field.name.startswith("rip__"):
            continue
        name, first, last = renames.get(field.name, (field.name, 0, 1 << 30))
        if line is None or first <= line <= last:
            out.append((name, field.name))
    return out


# ---- the scheduler's state: the rip and ucontext backends --------------

RUNNING, RUNNABLE, FD, SEND, RECV, WG, MUTEX, COND, SLEEP, DEADLINE, TIMEOUT, OFFLOAD = range(12)


class Entry(object):
    """One wait of one task (core/dump.c's entry)."""

    def __init__(self, task, kind, **kw):
        self.task, self.kind = task, kind
        self.on = kw.get("on", 0)
        self.holder = kw.get("holder", 0)
        self.num = kw.get("num", 0)
        self.num2 = kw.get("num2", 0)
        self.dir = kw.get("dir", 0)
        self.due = kw.get("due", 0)
        self.select = kw.get("select", False)
        self.chan = kw.get("chan")


def _waiters(wl):
    return list(_list(wl["head"]))


def _core_entries():
    """Every task of the selected thread's scheduler and what it waits on,
    in rip_dump_tasks' order."""
    found = []
    runq = gdb.parse_and_eval("rip__runq")
    if _ptr(runq["current"]):
        found.append(Entry(_ptr(runq["current"]), RUNNING))
    for t in _list(runq["head"]):
        found.append(Entry(_ptr(t), RUNNABLE))
    poll = _static("P", "core/poll.c")
    for fd in range(int(poll["nfds"])):
        state = poll["fds"][fd]
        for which, d in (("readers", 1), ("writers", 2)):
            for w in _waiters(state[which]):
                found.append(Entry(_ptr(w["task"]), FD, num=fd, dir=d))
    chan_t = gdb.lookup_type("struct rip_chan").pointer()
    for link in _list(_static("chans", "core/chan.c")):
        c = (link + 1).cast(chan_t)
        senders, receivers = _waiters(c["senders"]), _waiters(c["receivers"])
        for kind, ws in ((SEND, senders), (RECV, receivers)):
            for w in ws:
                found.append(Entry(_ptr(w["task"]), kind, on=_ptr(c), chan=c, num=len(senders),
                                   num2=len(receivers), select=int(w["mark"]) != 0))
    for wg in _list(_static("wgs", "core/wg.c")):
        for w in _waiters(wg["waiters"]):
            found.append(Entry(_ptr(w["task"]), WG, on=_ptr(wg), num=int(wg["count"])))
    for m in _list(_static("mutexes", "core/mutex.c")):
        for w in _waiters(m["waiters"]):
            found.append(Entry(_ptr(w["task"]), MUTEX, on=_ptr(m), holder=_ptr(m["holder"])))
    for c in _list(_static("conds", "core/mutex.c")):
        for w in _waiters(c["waiters"]):
            found.append(Entry(_ptr(w["task"]), COND, on=_ptr(c)))
    for job in _list(_static("flying", "core/offload.c"), "fl_next"):
        found.append(Entry(_ptr(job["task"]), OFFLOAD))
    deadlines = set()
    d = _static("D", "core/deadline.c")
    for i in range(int(d["cap"]) if _ptr(d["keys"]) else 0):
        if _ptr(d["keys"][i]):
            deadlines.add(_ptr(d["values"][i]["timer"].address))
    sched = gdb.parse_and_eval("rip__sched")
    timers = [sched["timers"][i] for i in range(int(sched["ntimers"]))]
    timers += list(_list(sched["listed_first"]))
    for tm in timers:
        kind = SLEEP if not _ptr(tm["w"]) else DEADLINE if _ptr(tm) in deadlines else TIMEOUT
        found.append(Entry(_ptr(tm["task"]), kind, due=int(tm["deadline_ms"])))
    return found


def _group(found):
    """[(task, state, [its waits])] in the order the tasks were first found."""
    order, by_task = [], {}
    for e in found:
        if e.task not in by_task:
            by_task[e.task] = []
            order.append(e.task)
        by_task[e.task].append(e)
    out = []
    for t in order:
        kinds = {e.kind for e in by_task[t]}
        state = "running" if RUNNING in kinds else "runnable" if RUNNABLE in kinds else "waiting"
        out.append((t, state, [e for e in by_task[t] if e.kind not in (RUNNING, RUNNABLE)]))
    return out


def _wait_text(e, now):
    if e.kind == FD:
        return "fd %d for %s" % (e.num, "read" if e.dir == 1 else "write")
    if e.kind in (SEND, RECV):
        c = e.chan
        return ("channel %s to %s%s (elem %d bytes, capacity %d, %d buffered, %d senders, "
                "%d receivers waiting%s)"
                % (_hex(e.on), "send" if e.kind == SEND else "receive",
                   " in a select" if e.select else "", int(c["elem_size"]), int(c["capacity"]),
                   int(c["count"]), e.num, e.num2, ", closed" if int(c["closed"]) else ""))
    if e.kind == WG:
        return "wait group %s (count %d)" % (_hex(e.on), e.num)
    if e.kind == MUTEX:
        return "mutex %s (held by task %s)" % (_hex(e.on), _hex(e.holder))
    if e.kind == COND:
        return "condition variable %s" % _hex(e.on)
    if e.kind in (SLEEP, DEADLINE, TIMEOUT):
        what = {SLEEP: "sleep, due", DEADLINE: "deadline", TIMEOUT: "timeout"}[e.kind]
        if now is None:
            return "%s at %d ms (the program's monotonic clock)" % (what, e.due)
        return "%s in %d ms" % (what, e.due - now)
    if e.kind == OFFLOAD:
        return "offload"
    return "?"


def _stats(back):
    """rip_stats' line for the selected thread's scheduler."""
    sched = gdb.parse_and_eval("rip__sched")
    runq = gdb.parse_and_eval("rip__runq")
    tasks = int(sched["live"])
    running = 1 if _ptr(runq["current"]) else 0
    runnable = len(list(_list(runq["head"])))
    timers = int(sched["ntimers"]) + len(list(_list(sched["listed_first"])))
    pool = _static("pool", "core/offload.c")
    frames = pooled = 0
    if back == "rip":
        p = gdb.parse_and_eval("rip__pool")
        pooled = int(p["slab_left"])
        classes = p["free"].type.range()[1] + 1
        for i in range(classes):
            head = p["free"][i]
            while _ptr(head):
                pooled += (i + 1) * 8
                head = head.cast(gdb.lookup_type("void").pointer().pointer()).dereference()
        slabbed = int(p["slabbed"])
        frames = slabbed - pooled if slabbed > pooled else 0
    return ("rip: stats: tasks %d (running %d, runnable %d, waiting %d), run queue %d, "
            "fd waits %d, timers %d, offload queued %d, offload threads busy %d of %d, "
            "frames %d bytes, pooled %d bytes"
            % (tasks, running, runnable, tasks - running - runnable, runnable,
               int(_static("P", "core/poll.c")["waiting"]), timers, int(pool["queued"]),
               int(pool["threads"]) - int(pool["idle"]), int(pool["threads"]), frames, pooled))


# ---- the threads backend ----------------------------------------------

THR_KINDS = ["NONE", "FD_READ", "FD_WRITE", "SEND", "RECV", "SELECT", "WG", "SLEEP", "OFFLOAD",
             "MUTEX", "COND"]


def _thr_kind_names():
    """RIP_THR_* by value, from the runtime's own enum where gdb sees it."""
    names = {}
    for name in THR_KINDS:
        try:
            names[int(gdb.parse_and_eval("RIP_THR_" + name))] = name
        except gdb.error:
            pass
    return names


def _thread_of(address, threads):
    """The gdb thread whose stack holds `address` (a task's record lives on
    its thread's stack): the one with the nearest stack pointer below it."""
    best = None
    for th, sp in threads:
        if sp <= address and (best is None or sp > best[1]):
            best = (th, sp)
    return best[0] if best and address - best[1] < (64 << 20) else None


def _stack_pointers():
    out = []
    for th in gdb.selected_inferior().threads():
        th.switch()
        try:
            out.append((th, _ptr(gdb.newest_frame().read_register("sp"))))
        except gdb.error:
            pass
    return out


SYSTEM_LIBS = ("/lib/", "/lib64/", "/usr/lib/", "/usr/lib64/")


def _user_frames(f):
    """(gdb frame, name, file, line) of the user's functions from frame
    `f` outwards: not the runtime's, not a system library's."""
    out = []
    while f is not None and len(out) < 200:
        sal = f.find_sal()
        name = f.name()
        symtab = sal.symtab
        if name and symtab and not RUNTIME_FILES.search(symtab.filename) and \
                not symtab.objfile.filename.startswith(SYSTEM_LIBS):
            out.append((f, name, symtab.filename, sal.line))
        try:
            f = f.older()
        except gdb.error:
            break
    return out


def _thread_chain(th):
    """The user's functions on thread `th`'s stack, innermost first."""
    th.switch()
    return ["    %s (%s:%d)" % x[1:] for x in _user_frames(gdb.newest_frame())]


# ---- the ucontext backend: a switched-out task's stack -------------------
#
# A task's registers are in its ucontext (swapcontext saved them when it
# parked).  gdb unwinds from a thread's registers only, so an unwinder
# hands gdb those registers as the callers' of the thread's newest frame
# while one chain is read: its frames from #1 on are the task's.

GREGS = {"r8": 0, "r9": 1, "r10": 2, "r11": 3, "r12": 4, "r13": 5, "r14": 6, "r15": 7,
         "rdi": 8, "rsi": 9, "rbp": 10, "rbx": 11, "rdx": 12, "rax": 13, "rcx": 14,
         "rsp": 15, "rip": 16}             # <sys/ucontext.h>'s REG_* on x86-64
SAVED = ("rbx", "rbp", "r12", "r13", "r14", "r15", "rsp", "rip")   # what swapcontext keeps

try:
    from gdb.unwinder import Unwinder
except ImportError:
    Unwinder = None

if Unwinder is not None:
    class SwitchedOutTask(Unwinder):
        """While `registers` is set: the newest frame's caller is the
        switched-out task whose saved registers those are."""

        def __init__(self):
            super(SwitchedOutTask, self).__init__("rip-ucontext-task")
            self.registers = None

        def __call__(self, pending):
            if self.registers is None or pending.level() != 0:
                return None
            sp, pc = pending.read_register("rsp"), pending.read_register("rip")
            info = pending.create_unwind_info(_FrameId(sp, pc))
            for name, value in self.registers.items():
                info.add_saved_register(name, gdb.Value(value).cast(sp.type if name == "rsp"
                                                                     else pc.type if name == "rip"
                                                                     else sp.type))
            return info

    class _FrameId(object):
        def __init__(self, sp, pc):
            self.sp, self.pc = sp, pc

    _switched_out = SwitchedOutTask()
else:
    _switched_out = None


def _uc_frames(task):
    """The user's frames of a switched-out ucontext task, innermost first,
    read while the unwinder stands in (the caller restores it), or None
    where gdb cannot (no unwinder API, not x86-64)."""
    if _switched_out is None or gdb.selected_inferior().architecture().name() != "i386:x86-64":
        return None
    uc = gdb.Value(task).cast(gdb.lookup_type("struct uc_task").pointer())
    gregs = uc["ctx"]["uc_mcontext"]["gregs"]
    _switched_out.registers = {r: int(gregs[GREGS[r]]) & (2 ** 64 - 1) for r in SAVED}
    gdb.invalidate_cached_frames()
    try:
        return _user_frames(gdb.newest_frame().older())
    except gdb.error:
        return None


def _uc_release():
    if _switched_out is not None and _switched_out.registers is not None:
        _switched_out.registers = None
        gdb.invalidate_cached_frames()


def _uc_chain(task):
    try:
        frames = _uc_frames(task.address) if task.state != "running" else \
            _user_frames(gdb.newest_frame())
        return None if frames is None else ["    %s (%s:%d)" % x[1:] for x in frames]
    finally:
        _uc_release()


def _thr_tasks():
    """[(task record, worker, state, wait text, thread)] of the threads backend."""
    names = _thr_kind_names()
    threads = _stack_pointers()
    now = _now_ms() if _live() else None
    recs = list(_list(_static("tasks", "threads/dump.c")))
    out = []
    for t in reversed(recs):        # oldest first, as the program's dump
        kind = names.get(int(t["kind"]), "NONE")
        num, num2, on = int(t["num"]), int(t["num2"]), _ptr(t["on"])
        due, since = int(t["due"]), int(t["since"])
        text = {
            "FD_READ": "fd %d for read" % num, "FD_WRITE": "fd %d for write" % num,
            "SEND": "channel %s to send (elem %d bytes, capacity %d)" % (_hex(on), num, num2),
            "RECV": "channel %s to receive (elem %d bytes, capacity %d)" % (_hex(on), num, num2),
            "SELECT": "a select of %d channels" % num, "WG": "wait group %s" % _hex(on),
            "SLEEP": ("sleep, due in %d ms" % (due - now)) if now is not None else
                     "sleep, due at %d ms (the program's monotonic clock)" % due,
            "OFFLOAD": "offload", "MUTEX": "mutex %s" % _hex(on),
            "COND": "condition variable %s" % _hex(on)}.get(kind)
        if text is not None and now is not None:
            text += ", waited %d ms" % (now - since)
        elif text is not None:
            text += ", waiting since %d ms" % since
        out.append((_ptr(t), int(t["worker"]), "runnable" if text is None else "waiting", text,
                    _thread_of(_ptr(t), threads)))
    return out


def _thr_stats(tasks):
    """rip_stats' line on the threads backend (its dump.c's stats_locked:
    no offload, frame or pool counts)."""
    n = len(tasks)
    running = sum(t.state == "running" for t in tasks)
    runnable = sum(t.state == "runnable" for t in tasks)
    fds = sum(bool(t.waits) and t.waits[0].startswith("fd ") for t in tasks)
    timers = sum(bool(t.waits) and t.waits[0].startswith("sleep") for t in tasks)
    return ("rip: stats: tasks %d (running %d, runnable %d, waiting %d), run queue %d, "
            "fd waits %d, timers %d, offload queued 0, offload threads busy 0 of 0, "
            "frames 0 bytes, pooled 0 bytes" % (n, running, runnable, n - running - runnable,
                                                 runnable, fds, timers))


# ---- the listing --------------------------------------------------------

class Task(object):
    """One task as `rip tasks` numbers it."""

    def __init__(self, number, address, worker, state, waits, thread, back):
        self.number, self.address, self.worker = number, address, worker
        self.state, self.waits, self.thread, self.back = state, waits, thread, back


def _schedulers():
    """(gdb thread, worker) of each thread running a scheduler (rip and
    ucontext: one per worker), the selected thread left selected."""
    out = []
    for th in sorted(gdb.selected_inferior().threads(), key=lambda t: t.num):
        th.switch()
        try:
            sched = gdb.parse_and_eval("rip__sched")
            runq = gdb.parse_and_eval("rip__runq")
            if int(sched["live"]) or _ptr(runq["current"]) or _ptr(runq["head"]):
                out.append((th, int(sched["worker"])))
        except gdb.error:
            continue                # a thread whose TLS gdb cannot read, or none of ours
    return out


def collect():
    """(backend, [(header lines, [Task])]) of every worker."""
    _memo.clear()
    back = backend()
    if back is None:
        raise gdb.GdbError("rip: this program has no ripper runtime (or it was built without -g)")
    selected = gdb.selected_thread()
    frame = gdb.selected_frame() if selected is not None else None
    workers = []
    number = 0
    try:
        if back == "threads":
            by_worker = {}
            for addr, worker, state, text, th in _thr_tasks():
                by_worker.setdefault(worker, []).append((addr, state, text, th))
            for worker in sorted(by_worker):
                tasks = []
                for addr, state, text, th in by_worker[worker]:
                    number += 1
                    if th is not None and th == selected:
                        state = "running"
                    tasks.append(Task(number, addr, worker, state, [text] if text else [], th, back))
                head = ["rip: tasks of worker %d: %d live" % (worker, len(tasks)),
                        _thr_stats(tasks)]
                workers.append((head, tasks))
        else:
            now = _now_ms() if _live() else None
            for th, worker in _schedulers():
                th.switch()
                groups = _group(_core_entries())
                live = int(gdb.parse_and_eval("rip__sched")["live"])
                head = ["rip: tasks of worker %d: %d live" % (worker, live), _stats(back)]
                tasks = []
                for t, state, waits in groups:
                    number += 1
                    texts = [_wait_text(e, now) for e in waits]
                    if state == "waiting" and texts:
                        texts[-1] += _waited_text(t, now)
                    tasks.append(Task(number, t, worker, state, texts, th, back))
                    tasks[-1].chain = _chain_lines(tasks[-1]) if back == "rip" else \
                        _uc_chain(tasks[-1])
                if live > len(groups):
                    tasks.append("rip: %d more tasks wait on what the dump does not list "
                                 "(a call in a plain function)" % (live - len(groups)))
                workers.append((head, tasks))
    finally:
        if selected is not None and selected.is_valid():
            selected.switch()
            if frame is not None and frame.is_valid():
                frame.select()
    return back, workers


def _task_type():
    return gdb.lookup_type("struct rip__task").pointer()


def _waited_text(task, now):
    """What the dump adds after a waiting task's waits: since when it waits
    (rip__task.ran_ms, the start of the scheduler's turn it last ran in)."""
    since = int(gdb.Value(task).cast(_task_type()).dereference()["ran_ms"])
    return ", waited %d ms" % (now - since) if now is not None else \
        ", waiting since %d ms" % since


def _chain_lines(task):
    """rip: the chain rip_dump_tasks prints for `task`."""
    t = gdb.Value(task.address).cast(_task_type())
    out = []
    running = task.state == "running"
    for f in _frames(t):
        line = _level_text(f, running)
        running = False
        if line is not None:
            out.append(line)
    return out


def _print_tasks(back, workers):
    if not workers:
        gdb.write("rip: no tasks (the scheduler has not started, or every task has ended)\n")
    for head, tasks in workers:
        for line in head:
            gdb.write(line + "\n")
        for task in tasks:
            if isinstance(task, str):
                gdb.write(task + "\n")
                continue
            text = "task %d %s: %s" % (task.number, _hex(task.address), task.state)
            if task.waits:
                text += " on " + "; ".join(task.waits)
            gdb.write(text + "\n")
            if back in ("rip", "ucontext") and task.chain is not None:
                for line in task.chain:
                    gdb.write(line + "\n")
            elif back == "threads" and task.thread is not None:
                selected = gdb.selected_thread()
                for line in _thread_chain(task.thread):
                    gdb.write(line + "\n")
                selected.switch()
            else:
                gdb.write("    (call chain not available on this backend)\n")


def _find_task(arg, workers):
    arg = arg.strip()
    if not arg:
        raise gdb.GdbError("usage: rip bt N  (N: a task's number in `rip tasks`, or its address)")
    try:
        want = int(arg, 0)
    except ValueError:
        raise gdb.GdbError("rip bt: '%s' is not a task number or address" % arg)
    for _, tasks in workers:
        for task in tasks:
            if isinstance(task, Task) and (task.number == want or task.address == want):
                return task
    raise gdb.GdbError("rip bt: no task %s (see `rip tasks`)" % arg)


# ---- commands ---------------------------------------------------------

class RipPrefix(gdb.Command):
    """Commands for programs built with ripper's runtime.

rip tasks          every task: state, what it waits on, call chain
rip bt N           task N's call chain, each level with its variables
rip print EXPR     EXPR, with a ripped function's variables by their source names
rip p EXPR         the same"""

    def __init__(self):
        super(RipPrefix, self).__init__("rip", gdb.COMMAND_STACK, gdb.COMPLETE_COMMAND, True)


class RipTasks(gdb.Command):
    """List every task of the program: its number, address, state (running,
runnable, waiting), what it waits on, and its call chain innermost first,
each level `function (file:line)` of the suspended call.  Works on a live
process and on a core file; calls nothing in the program."""

    def __init__(self):
        super(RipTasks, self).__init__("rip tasks", gdb.COMMAND_STACK)

    def invoke(self, arg, from_tty):
        back, workers = collect()
        _print_tasks(back, workers)


class RipBt(gdb.Command):
    """Show one task's call chain with each level's variables by their
source names: rip bt N, N a task's number in `rip tasks` or its address.
A running task's chain is the C stack (`bt`); on the threads backend, the
task's thread's stack."""

    def __init__(self):
        super(RipBt, self).__init__("rip bt", gdb.COMMAND_STACK)

    def invoke(self, arg, from_tty):
        back, workers = collect()
        task = _find_task(arg, workers)
        gdb.write("task %d %s: %s%s\n" % (task.number, _hex(task.address), task.state,
                                           " on " + "; ".join(task.waits) if task.waits else ""))
        if back == "threads" or task.state == "running":
            if task.thread is None:
                gdb.write("    (its thread is not found)\n")
                return
            selected = gdb.selected_thread()
            task.thread.switch()
            gdb.execute("bt", to_string=False)
            selected.switch()
            return
        if back == "ucontext":
            selected = gdb.selected_thread()
            task.thread.switch()
            try:
                frames = _uc_frames(task.address)
                if frames is None:
                    gdb.write("    (call chain not available on this backend)\n")
                for level, (f, name, file, line) in enumerate(frames or ()):
                    gdb.write("#%d %s (%s:%d)\n" % (level, name, file, line))
                    try:
                        block = f.block()
                    except RuntimeError:
                        continue
                    seen = set()
                    while block is not None and not block.is_global and not block.is_static:
                        for sym in block:
                            if (sym.is_variable or sym.is_argument) and sym.name not in seen:
                                seen.add(sym.name)
                                try:
                                    text = str(sym.value(f))
                                except gdb.error as e:
                                    text = "<%s>" % e
                                gdb.write("        %s = %s\n" % (sym.name, text))
                        if block.function is not None:
                            break
                        block = block.superblock
            finally:
                _uc_release()
                selected.switch()
            return
        t = gdb.Value(task.address).cast(_task_type())
        level = 0
        for f in _frames(t):
            line = _level_text(f, False)
            if line is None:
                continue
            gdb.write("#%d %s\n" % (level, line.strip()))
            level += 1
            resume = _ptr(f["resume"])
            frame_type, block = _frame_struct(resume)
            if frame_type is None:
                gdb.write("        (no variables: built without -g)\n")
                continue
            fn = block.function.name[len(RESUME):]
            renames = _renames(block, fn)
            value = f.cast(frame_type.pointer()).dereference()
            at = re.search(r":(\d+)\)$", line)
            for name, field in _user_fields(frame_type, renames, int(at.group(1)) if at else None):
                try:
                    text = str(value[field])
                except gdb.error as e:
                    text = "<%s>" % e
                gdb.write("        %s = %s\n" % (name, text))


def _function_block(frame):
    """The block of the function `frame` runs (its innermost block's, up)."""
    block = frame.block()
    while block is not None and block.function is None:
        block = block.superblock
    return block


def _rewrite(expr, frame):
    """EXPR with each name of a frame variable of the ripped function
    `frame` runs replaced by its place in the frame (rip__F->field); the
    innermost declaration in scope at the frame's line wins."""
    fn = frame.name() or ""
    if not fn.startswith(RESUME):
        return expr
    block = _function_block(frame)
    try:
        frame_type = gdb.lookup_type("struct " + FRAME_STRUCT + fn[len(RESUME):], block)
    except gdb.error:
        return expr
    renames = _renames(block, fn[len(RESUME):])
    line = frame.find_sal().line
    fields = {}                     # source name -> (field, scope start)
    for field in frame_type.fields():
        if field.name is None or field.name.startswith("rip__"):
            continue
        name, first, last = renames.get(field.name, (field.name, 0, 1 << 30))
        if first <= line <= last and (name not in fields or first >= fields[name][1]):
            fields[name] = (field.name, first)
    base = "((struct %s%s *)rip__self)" % (FRAME_STRUCT, fn[len(RESUME):])
    try:
        if not frame.read_var("rip__F").is_optimized_out:
            base = "rip__F"
    except ValueError:
        pass
    out, i = [], 0
    token = re.compile(r"""("(\\.|[^"\\])*"|'(\\.|[^'\\])*'|[A-Za-z_]\w*|->|\.|\s+|.)""")
    last = ""
    for m in token.finditer(expr):
        t = m.group(0)
        if re.match(r"[A-Za-z_]\w*$", t) and last not in (".", "->") and t in fields:
            t = "%s->%s" % (base, fields[t][0])
        out.append(t)
        if not t.isspace():
            last = m.group(0)
    return "".join(out)


class RipPrint(gdb.Command):
    """Print EXPR as the source means it: in a ripped function, its locals
live in its frame (rip__F->x), and `rip print x` finds them by their source
names, the innermost in scope at the current line.  Elsewhere, as `print`."""

    def __init__(self, name="rip print"):
        super(RipPrint, self).__init__(name, gdb.COMMAND_DATA, gdb.COMPLETE_EXPRESSION)

    def invoke(self, arg, from_tty):
        _memo.clear()
        if not arg.strip():
            raise gdb.GdbError("usage: rip print EXPR")
        try:
            frame = gdb.selected_frame()
        except gdb.error:
            frame = None
        expr = _rewrite(arg, frame) if frame is not None else arg
        gdb.execute("print " + expr, from_tty)


# ---- bt: ripped functions by their own names ------------------------------

try:
    from gdb.FrameDecorator import FrameDecorator
except ImportError:
    FrameDecorator = None


class _Var(object):
    def __init__(self, name, value):
        self._name, self._value = name, value

    def symbol(self):
        return self._name

    def value(self):
        return self._value


if FrameDecorator is not None:
    class RippedFrame(FrameDecorator):
        """A frame of a ripped function's resume entry, named as the source
        names the function, its parameters and variables read from its
        frame by their source names; a frame the scheduler resumed has its
        logical callers (which suspended, and are not on the C stack)
        after it, indented, as the frames linked to it name them."""

        def __init__(self, base, callers=()):
            super(RippedFrame, self).__init__(base)
            self._base = base
            self._callers = list(callers)

        def function(self):
            name = self._base.inferior_frame().name() or ""
            return name[len(RESUME):] if name.startswith(RESUME) else \
                super(RippedFrame, self).function()

        def elided(self):
            return self._callers or None

        def _values(self, want_params):
            frame = self._base.inferior_frame()
            fn = (frame.name() or "")[len(RESUME):]
            block = _function_block(frame)
            try:
                frame_type = gdb.lookup_type("struct " + FRAME_STRUCT + fn, block)
            except gdb.error:
                return []
            renames, params = _table(block, fn)
            line = frame.find_sal().line
            out, seen = [], set()
            sel = gdb.selected_frame()
            try:
                frame.select()
                for field in frame_type.fields():
                    if field.name is None or field.name.startswith("rip__"):
                        continue
                    name, first, last = renames.get(field.name, (field.name, 0, 1 << 30))
                    if (field.name in params) != want_params or not first <= line <= last or \
                            name in seen:
                        continue
                    seen.add(name)
                    try:
                        out.append(_Var(name, gdb.parse_and_eval(_rewrite(name, frame))))
                    except gdb.error:
                        pass
            finally:
                sel.select()
            return out

        def frame_args(self):
            return self._values(True)

        def frame_locals(self):
            return self._values(False)

    class LogicalCaller(FrameDecorator):
        """A suspended caller of a resumed ripped function: its frame, not
        a C frame; printed as `rip tasks` prints a level."""

        def __init__(self, base, name, file, line, frame):
            super(LogicalCaller, self).__init__(base)
            self._name, self._file, self._line, self._frame = name, file, line, frame

        def function(self):
            return self._name

        def filename(self):
            return self._file

        def line(self):
            return self._line

        def address(self):
            return None

        def _values(self, want_params):
            frame_type, block = _frame_struct(_ptr(self._frame["resume"]))
            if frame_type is None:
                return None
            renames, params = _table(block, block.function.name[len(RESUME):])
            value = self._frame.cast(frame_type.pointer()).dereference()
            return [_Var(name, value[field]) for name, field in
                    _user_fields(frame_type, renames, self._line)
                    if (field in params) == want_params]

        def frame_args(self):
            return self._values(True)

        def frame_locals(self):
            return self._values(False)

    def _logical_callers(base):
        """The suspended callers of the resumed frame `base` (its frame's
        parent links), as LogicalCaller decorators."""
        frame = base.inferior_frame()
        out = []
        try:
            me = frame.read_var("rip__self")
            if me.is_optimized_out:
                me = frame.read_var("rip__F")
            f = me.cast(gdb.lookup_type("struct rip__frame").pointer())["parent"]
            infos = _fninfo()
            current = _ptr(gdb.parse_and_eval("rip__runq")["current"])
            first = current + _room() if current else 0    # its parent word is the task's
            for _ in range(10000):
                if not _ptr(f) or _ptr(me) == first:
                    break
                info = infos.get(_ptr(f["resume"]))
                if info is None or info[1] is None:
                    break
                name, file, lines = info
                state = int(f["state"])
                out.append(LogicalCaller(base, name, file, lines[state] if 0 <= state < len(lines)
                                         else 0, f))
                me, f = f, f["parent"]
        except (gdb.error, ValueError):
            pass
        return out

    class RipFrameFilter(object):
        def __init__(self):
            self.name = "rip"
            self.priority = 100
            self.enabled = True
            gdb.frame_filters[self.name] = self

        def filter(self, frames):
            _memo.clear()
            for f in frames:
                name = f.inferior_frame().name() or ""
                if name == "rip__call":     # the inline glue of an async call: its caller follows
                    continue
                if not name.startswith(RESUME):
                    yield f
                    continue
                older = f.inferior_frame().older()
                resumed = older is None or not (older.name() or "").startswith(RESUME)
                yield RippedFrame(f, _logical_callers(f) if resumed else ())


if not _loaded():
    gdb._rip_gdb_loaded = True
    RipPrefix()
    RipTasks()
    RipBt()
    RipPrint()
    RipPrint("rip p")               # as `p` is `print`
    if FrameDecorator is not None:
        RipFrameFilter()
    if _switched_out is not None:
        gdb.unwinder.register_unwinder(None, _switched_out, replace=True)
