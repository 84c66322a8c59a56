"""abi.py -- the frame ABI as ripper spells it, in one place.

The C side is runtime/src/rip/rip_frame.h, which ripper includes (as text)
in every file it rips; the code below is what ripped code calls and the
sizes it was generated for, which every ripped file checks at compile
time (`check()`).

    resume_point(3, "rip__new_f(rip__F->a)")
    -> 'rip__c = rip__new_f(rip__F->a); if (!rip__call(rip__self, rip__c)) {
        rip__self->state = 3; return 0; } rip__resume_3: '
"""

# The layouts ripped code compiles in (rip_frame.h: the frame, the wait,
# the task, waiter, run queue and channel the intrinsics inline), as a
# number the runtime defines a symbol for: raise it, and the symbol in
# runtime/src/rip/sched.c, whenever one of them changes, so that ripped
# code kept from another version fails to link instead of running wrong.
ABI_VERSION = 3
# What ripper assumes of those layouts (frame sizes for --stats, the
# alignment analysis refuses past); check() asserts each against the
# header in every ripped file, so a change on the C side cannot go
# unnoticed here.
FRAME_HEADER = 24       # sizeof(struct rip__frame)
WAIT_BYTES = 32         # sizeof(struct rip__wait)
WAIT_ALIGN = 8          # __alignof__(struct rip__wait)
MAX_ALIGN = 16          # frames come 16-aligned at most (rip__frame_max_align)
# The runtime's side of the ABI as ripped code names it (rip_frame.h)
FRAME_T = "struct rip__frame"           # a frame's header; every frame pointer's type
ALLOC = "rip__frame_alloc"              # (bytes, resume entry) -> a new frame
FREE = "rip__frame_free"                # a finished frame back to its pool
FREE_SIZED = "rip__frame_free_sized"    # the same, its size known at compile time
CALL = "rip__call"                      # (self, child): run child; 0 if it suspended
COPY = "rip__copy"                      # memcpy that returns its destination
# Every name ripper writes into a function (locals, labels, frame members)
# or beside it at file scope is in the space rip.h reserves, `rip__`: no
# valid program declares one, so no user name can hide or clash with them.
SELF = "rip__self"      # the resume entry's frame (struct rip__frame *)
DONE = "rip__c"         # the finished child on resume, and the child being called
FRAME = "rip__F"        # the resume entry's frame, as its own struct
RESULT = "rip__result"  # a frame's result field (first after the header)
HEADER = "rip__hdr"     # a frame's header field
WAIT = "rip__w"         # a frame's place in a wait list (intrinsics)
R = "rip__r"            # an intrinsic's result, a C local
MAIN = "rip__main_"     # the prefix of --all-async's main task's names (lower.main_task)
# Runtime primitives whose direct calls are inlined: name -> (try, woken);
# rip_yield always suspends.
INTRINSICS = {
    "rip_yield": None,
    "rip_chan_send": ("rip__chan_send_try", "rip__chan_send_woken"),
    "rip_chan_recv": ("rip__chan_recv_try", "rip__chan_recv_woken"),
    "rip_wg_wait": ("rip__wg_wait_try", "rip__wg_wait_woken"),
}
# every runtime name ripped code uses (tests/ripper/test_abi.py finds each in rip_frame.h)
RUNTIME_NAMES = (ALLOC, FREE, FREE_SIZED, CALL, COPY, "rip__yield_in", "rip__wait_in",
                 "rip__waits", "rip__wait", "rip__frame_max_align", "rip__abi_v%d" % ABI_VERSION) + \
    tuple(n for pair in INTRINSICS.values() if pair for n in pair if n)


# An async function f's own names: rip__ followed by a word no other name
# of ripper's or of the runtime's starts with, then f's name (which starts
# with a letter or _, never a digit like the labels rip__resume_N).
CONSTRUCTOR = "rip__new_"       # struct rip__frame *rip__new_f(params): makes f's frame
RESUME_ENTRY = "rip__resume_"   # static int rip__resume_f(self, done): runs f on
FRAME_TAG = "rip__frame_"       # struct rip__frame_f: f's frame


# A variadic async function f (its variadic arguments outlive no call of C
# itself, so each resume must re-enter f's body with them): its
# constructor takes, for the `...`, the caller's thunk and the caller's
# copy of the arguments; its resume entry calls the thunk, which calls
# f's body (rip__vbody_f, variadic) with the arguments again.
VA_THUNK = "rip__vt"            # the constructor's (and frame's) thunk
VA_ARGS = "rip__va"             # the constructor's (and frame's) pointer to the arguments
VA_BODY = "rip__vbody_"         # static int rip__vbody_f(self, done, ...): f's body
VA_BODY_T = "int (*)(%s *, %s *, ...)" % (FRAME_T, FRAME_T)
VA_ARGS_TAG = "rip__vargs_"     # struct rip__vargs_g_N: caller g's copy at resume point N
VA_THUNK_FN = "rip__vthunk_"    # static int rip__vthunk_g_N(self, done, body, args)


def va_thunk_param(name=VA_THUNK):
    """The declarator of a thunk pointer named `name`."""
    return "int (*%s)(%s *, %s *, %s, void *)" % (name, FRAME_T, FRAME_T, VA_BODY_T)


def va_body(name):
    return VA_BODY + name


def va_args_struct(caller, point):
    return "struct %s%s_%d" % (VA_ARGS_TAG, caller, point)


def va_thunk(caller, point):
    return "%s%s_%d" % (VA_THUNK_FN, caller, point)


def constructor(name):
    return CONSTRUCTOR + name


def constructor_params(f, params):
    """The parameter list of async function f's constructor, from f's
    `params` text: a variadic f's `...` becomes the caller's thunk and its
    copy of the arguments (abi.VA_THUNK):

        (const char *fmt, ...)  ->  (const char *fmt, int (*rip__vt)(...), void *rip__va)"""
    if not f.variadic:
        return params
    i = params.rfind("...")
    assert i >= 0, params
    return params[:i] + "%s, void *%s" % (va_thunk_param(), VA_ARGS) + params[i + 3:]


def constructed(symbol):
    """The async function whose constructor `symbol` is, or None."""
    return symbol[len(CONSTRUCTOR):] if symbol.startswith(CONSTRUCTOR) else None


def resume_entry(name):
    return RESUME_ENTRY + name


def line_table(name):
    """The static array of f's resume points' source lines (rip_dump_tasks)."""
    return "rip__lines_" + name


def var_table(name):
    """The static array of f's frame variables and their scopes (gdb's `rip print`)."""
    return "rip__vars_" + name


def fninfo(name):
    """f's struct rip__fninfo, in the section rip_frame.h names."""
    return "rip__info_" + name


FNINFO_SECTION = "rip__fninfo"


def frame_struct(name):
    return "struct " + FRAME_TAG + name


def resume_label(point):
    """The label resume point `point` continues at."""
    return "rip__resume_%d" % point


def literal_field(n):
    """The frame field of the n-th compound literal kept in the frame."""
    return "rip__lit%d" % n


def temporary(n):
    """The n-th temporary normalize.py makes in a function."""
    return "rip__t%d" % n


def continue_label(n):
    """The n-th label a loop's `continue` goes to once its step is moved."""
    return "rip__cont_%d" % n


def dummy(key):
    """The extern that names the type of the local declared at `key` (a
    type declared in the function: Printer.dummies)."""
    return "rip__d_" + key.split(":")[-1]


def hoisted_static(name_at, name):
    """--all-async: the file-scope name of static local `name` declared at
    offset `name_at` (lower.hoist)."""
    return "rip__s%d_%s" % (name_at, name)


def result_typedef(name):
    return "rip__result_" + name


def function_typedef(name):
    return "rip__fn_" + name


def type_typedef(name, n):
    """The n-th type async function `name`'s body names (Printer.type_name)."""
    return "rip__type_%s_%d" % (name, n)


def check():
    """File-scope declarations that fail to compile when the frame ABI
    carried in the file is not the one this ripper generates code for, and
    fail to link against a runtime of another ABI version."""
    checks = [("frame_header", "sizeof(%s) == %d" % (FRAME_T, FRAME_HEADER)),
              ("wait", "sizeof(struct rip__wait) == %d && __alignof__(struct rip__wait) == %d"
               % (WAIT_BYTES, WAIT_ALIGN)),
              ("max_align", "rip__frame_max_align == %d" % MAX_ALIGN)]
    # one array a layout: gcc's error names the one that differs
    return " ".join("typedef char rip__abi_%s[(%s) ? 1 : -1];" % c for c in checks) + \
        (" extern const char rip__abi_v%d; static const char *const rip__abi_link "
         "__attribute__((__used__)) = &rip__abi_v%d;" % (ABI_VERSION, ABI_VERSION))


def result_access(type_text):
    """The callee's result in the finished frame rip__c (its first field
    after the header, aligned for its type)."""
    return ("(*(%s *)(void *)((char *)%s + ((sizeof(%s) + __alignof__(%s) - 1) "
            "& ~(__alignof__(%s) - 1))))" % (type_text, DONE, FRAME_T, type_text, type_text))


def resume_point(point, start):
    """Start a callee (`start` makes its frame); if it suspends, so does
    this function, to resume at the label right after."""
    return ("%s = %s; if (!%s(%s, %s)) { %s->state = %d; return 0; } %s: "
            % (DONE, start, CALL, SELF, DONE, SELF, point, resume_label(point)))


def yield_point(point):
    """rip_yield() inlined: this frame is the one the task resumes."""
    return "%s->state = %d; return rip__yield_in(%s); %s: ;" % (
        SELF, point, SELF, resume_label(point))


def wait_point(point, attempt, woken):
    """A channel or wait-group intrinsic: `attempt` returns rip__waits when
    this frame is queued; then suspend, and run `woken` once resumed."""
    return ("if (%s == rip__waits) { %s->state = %d; return rip__wait_in(%s); "
            "%s: %s }" % (attempt, SELF, point, SELF, resume_label(point), woken))


def frame_size(layout):
    """sizeof a frame: the header, then members of (size, align) in order."""
    offset, biggest = FRAME_HEADER, 8
    for size, align in layout:
        size, align = (size, align) if size > 0 and align > 0 else (8, 8)
        offset = (offset + align - 1) // align * align + size
        biggest = max(biggest, align)
    return (offset + biggest - 1) // biggest * biggest
