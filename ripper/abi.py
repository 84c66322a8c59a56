"""abi.py -- the frame ABI as ripper spells it, in one place.

The C side is runtime/src/rip/rip_frame.h, which ripper includes (as text)
in every file it rips; the code below is what ripped code calls and the
sizes it was generated for, which every ripped file checks at compile
time (`check()`).

    resume_point(3, "f__rip(rip_F->a)")
    -> 'rip_c = f__rip(rip_F->a); if (!rip__call(rip_self, rip_c)) { rip_self->state = 3;
        return 0; } rip_resume_3: '
"""

# The layouts ripped code compiles in (rip_frame.h: the frame, the wait,
# the task, waiter, run queue and channel the intrinsics inline), as a
# number the runtime defines a symbol for: raise it, and the symbol in
# runtime/src/rip/sched.c, whenever one of them changes, so that ripped
# code kept from another version fails to link instead of running wrong.
ABI_VERSION = 2
FRAME_HEADER = 24       # sizeof(struct rip_frame)
WAIT_BYTES = 32         # sizeof(struct rip__wait)
WAIT_ALIGN = 8
MAX_ALIGN = 16          # frames come 16-aligned at most
SELF = "rip_self"       # the resume entry's frame (struct rip_frame *)
DONE = "rip_c"          # the finished child on resume, and the child being called
FRAME = "rip_F"         # the resume entry's frame, as its own struct
RESULT = "rip_result"   # a frame's result field (first after the header)
HEADER = "rip_hdr"      # a frame's header field
WAIT = "rip_w"          # a frame's place in a wait list (intrinsics)
R = "rip_r"             # an intrinsic's result, a C local
# Runtime primitives whose direct calls are inlined: name -> (try, woken);
# rip_yield always suspends.
INTRINSICS = {
    "rip_yield": None,
    "rip_chan_send": ("rip__chan_send_try", "rip__chan_send_woken"),
    "rip_chan_recv": ("rip__chan_recv_try", "rip__chan_recv_woken"),
    "rip_wg_wait": ("rip__wg_wait_try", None),
}


def constructor(name):
    return name + "__rip"


def resume_entry(name):
    return name + "__resume"


def frame_struct(name):
    return "struct %s__frame" % name


def result_typedef(name):
    return "rip__result_" + name


def function_typedef(name):
    return "rip__fn_" + name


def type_typedef(name, n):
    """The n-th type async function `name`'s body names (AsyncFunction.type_name)."""
    return "rip__type_%s_%d" % (name, n)


def check():
    """File-scope declarations that fail to compile when the frame ABI
    carried in the file is not the one this ripper generates code for, and
    fail to link against a runtime of another ABI version."""
    return ("typedef char rip__abi_check[(sizeof(struct rip_frame) == %d && "
            "sizeof(struct rip__wait) == %d) ? 1 : -1]; "
            "extern const char rip__abi_v%d; "
            "static const char *const rip__abi_link __attribute__((__used__)) = &rip__abi_v%d;"
            % (FRAME_HEADER, WAIT_BYTES, ABI_VERSION, ABI_VERSION))


def result_access(type_text):
    """The callee's result in the finished frame rip_c (its first field
    after the header, aligned for its type)."""
    return ("(*(%s *)(void *)((char *)%s + ((sizeof(struct rip_frame) + __alignof__(%s) - 1) "
            "& ~(__alignof__(%s) - 1))))" % (type_text, DONE, type_text, type_text))


def resume_point(point, start):
    """Start a callee (`start` makes its frame); if it suspends, so does
    this function, to resume at the label right after."""
    return ("%s = %s; if (!rip__call(%s, %s)) { %s->state = %d; return 0; } rip_resume_%d: "
            % (DONE, start, SELF, DONE, SELF, point, point))


def yield_point(point):
    """rip_yield() inlined: this frame is the one the task resumes."""
    return "%s->state = %d; return rip__yield_in(%s); rip_resume_%d: ;" % (
        SELF, point, SELF, point)


def wait_point(point, attempt, woken):
    """A channel or wait-group intrinsic: `attempt` returns rip__waits when
    this frame is queued; then suspend, and run `woken` once resumed."""
    return ("if (%s == rip__waits) { %s->state = %d; return rip__wait_in(%s); "
            "rip_resume_%d: %s }" % (attempt, SELF, point, SELF, point, woken))


def frame_size(layout):
    """sizeof a frame: the header, then members of (size, align) in order."""
    offset, biggest = FRAME_HEADER, 8
    for size, align in layout:
        size, align = (size, align) if size > 0 and align > 0 else (8, 8)
        offset = (offset + align - 1) // align * align + size
        biggest = max(biggest, align)
    return (offset + biggest - 1) // biggest * biggest
