/* ripcc.c -- ripcc's native front: a compile that needs no ripping starts
 * no Python.
 *
 * Most files of a build hold no async function, and for them the Python
 * driver (ripcc-py, installed beside this program) only runs cc; its start
 * and imports cost ~30 ms a file, a third of a small file's compile.  This
 * front takes `-c` of one .c file with flags it knows, and runs the very
 * command the driver would run:
 *
 *   threads   exec cc:
 *               cc -DRIP_BACKEND_THREADS -I RT/include FLAGS [DEPS] -c f.c -o f.o
 *   ucontext  one compile that lists the headers it read, its messages held:
 *               cc -DRIP_BACKEND_UCONTEXT -I RT/include FLAGS -MD -MF $TMPDIR/ripcc-X.d
 *                  -c f.c -o f.o
 *   rip       the same, as ripped code is preprocessed, if the source names
 *             nothing of the runtime (no rip_, RIP_, rip.h in its text):
 *               cc -D__RIPPER__=1 -include RT/src/rip/rip_frame.h FLAGS -I RT/include
 *                  -MD -MF ... -c f.c -o f.o
 *
 * If no header listed could give the file an async function (none is a
 * rip.h, none spells rip_async), cc's messages and status are the build's.
 * Else the object and the messages are dropped and ripcc-py does the work
 * (the -Wblocking check, the ripping), as if this front had not run.  What
 * it does not know -- a link, -E, -S, -x, @file, -v, -save-temps, -MMD,
 * --posix, --all-async, a flag not on its list, RIP_SAN or RIPCC_NATIVE=0 in
 * the environment, an output that is no ordinary file -- it hands to
 * ripcc-py at once, with the same arguments.  The Python driver's own
 * _compile_listing_headers and _may_hold_async (ripper/ripcc.py) say the
 * same in Python; tests/test_ripcc_native.py holds the two to one answer.
 *
 * Built by `make venv` with the clone's runtime folder and flags file
 * compiled in:
 *   cc -O2 -DRIPCC_RUNTIME='"/clone/runtime"' -DRIPCC_CFLAGS_FILE='"/clone/build/lib/cflags"'
 * and by setup.py for a wheel without them: the runtime is then the one
 * the wheel put in PREFIX/lib/python3.N/{site,dist}-packages/ripper/runtime,
 * PREFIX being this program's bin folder's parent (one such, or the driver
 * does the work), and programs take no flags of its (no cflags file).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <elf.h>
#include <glob.h>
#include <stdint.h>

#ifndef RIPCC_VERSION                   /* ripper's, for the name of a wheel's library */
#define RIPCC_VERSION ""
#endif

static char **argv_given;               /* this command's arguments, for ripcc-py */
static const char *runtime_dir;         /* the runtime: include/, src/ */
static char *include_dir;               /* the runtime's include/ (rip.h) */
static char *frame_header;              /* the runtime's src/rip/rip_frame.h */
static const char *cflags_file;         /* the flags programs take (NULL: none) */

/* ---- a growing list of strings (a command being built) ---------------- */

struct words {
    char **at;                          /* the words, NULL after the last */
    size_t n;                           /* how many */
    size_t cap;                         /* room for this many before the NULL */
};

static void add(struct words *w, const char *s)
{
    if (w->n + 1 >= w->cap) {
        w->cap = w->cap ? 2 * w->cap : 64;
        w->at = realloc(w->at, w->cap * sizeof *w->at);
        if (!w->at) {
            perror("ripcc");
            exit(1);
        }
    }
    w->at[w->n++] = (char *)s;
    w->at[w->n] = NULL;
}

static void add_all(struct words *w, const struct words *more)
{
    for (size_t i = 0; i < more->n; i++)
        add(w, more->at[i]);
}

/* ---- the Python driver: everything this front does not do -------------- */

/* Run ripcc-py (beside this program, symlinks followed) with this
 * command's own arguments.  Does not return. */
static void python_driver(void);
static int regular_file(const char *path);

/* This program's folder (symlinks followed), or exit 1 saying why. */
static const char *own_folder(void)
{
    static char self[PATH_MAX];
    if (self[0])
        return self;
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0) {
        fprintf(stderr, "ripcc: error: cannot find this program's folder (/proc/self/exe: %s)\n",
                strerror(errno));
        exit(1);
    }
    self[n] = '\0';
    *strrchr(self, '/') = '\0';
    return self;
}

/* Where the runtime is: compiled in, or the one a wheel installed beside
 * this program; 0, or -1 if it cannot be told. */
static int find_runtime(void)
{
#ifdef RIPCC_RUNTIME
    runtime_dir = RIPCC_RUNTIME;
    include_dir = RIPCC_RUNTIME "/include";
    frame_header = RIPCC_RUNTIME "/src/rip/rip_frame.h";
    cflags_file = RIPCC_CFLAGS_FILE;
    return 0;
#else
    glob_t found;
    const char *bin = own_folder(), *slash = strrchr(bin, '/');
    int r = GLOB_NOMATCH;
    /* lib64: where a platform's packages go on some systems (a venv's is a
     * symlink to lib, looked at only if lib has none) */
    for (const char *const *lib = (const char *const[]){"lib", "lib64", NULL};
         *lib && r == GLOB_NOMATCH; lib++) {
        char *pattern;
        if (asprintf(&pattern, "%.*s/%s/python3*/[sd]i[st]*-packages/ripper/runtime/include/rip.h",
                     (int)(slash - bin), bin, *lib) < 0)
            return -1;
        r = glob(pattern, 0, NULL, &found);
        free(pattern);
    }
    if (r != 0 || found.gl_pathc != 1)
        return -1;                      /* none, or one per Python: the driver knows */
    include_dir = strdup(found.gl_pathv[0]);
    globfree(&found);
    *strrchr(include_dir, '/') = '\0';     /* .../ripper/runtime/include */
    runtime_dir = strndup(include_dir, (size_t)(strrchr(include_dir, '/') - include_dir));
    if (asprintf(&frame_header, "%.*s/src/rip/rip_frame.h",
                 (int)(strrchr(include_dir, '/') - include_dir), include_dir) < 0)
        return -1;
    cflags_file = NULL;
    return regular_file(frame_header) ? 0 : -1;
#endif
}

static void python_driver(void)
{
    char path[PATH_MAX + 16];
    snprintf(path, sizeof path, "%s/ripcc-py", own_folder());
    argv_given[0] = path;
    execv(path, argv_given);
    fprintf(stderr, "ripcc: error: cannot run %s (ripper's compiler driver): %s\n"
            "ripcc: note: reinstall ripper (make venv, or pip install)\n", path, strerror(errno));
    exit(1);
}

/* ---- reading the command line as the Python driver reads it ------------ */

struct command {
    const char *backend;                /* --backend's value, "rip" if none */
    const char *source;                 /* the one .c input of a compile */
    const char *output;                 /* -o's value, NULL if none */
    int compile_only;                   /* -c seen; else a link of .o, .a, .so files */
    int blocking_off;                   /* -Wno-blocking last of its kind, or -w */
    int color;                          /* -fdiagnostics-color's last say: 1, 0, -1 auto */
    struct words flags;                 /* cc's flags, in order, less input, -o, -c, deps */
    struct words depend;                /* -MD -MP -MF f -MT t -MQ q, in order */
    struct words args;                  /* every argument in order, less -o, --backend,
                                           the -Wblocking options (the driver's cmd.args) */
    struct words inputs;                /* the input files, in order */
};

static int starts(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

static int is_one_of(const char *s, const char *const *list)
{
    for (; *list; list++)
        if (strcmp(s, *list) == 0)
            return 1;
    return 0;
}

/* Flags whose value is the next argument when written apart. */
static const char *const separate_value[] = {
    "-I", "-D", "-U", "-include", "-imacros", "-isystem", "-iquote", "-idirafter",
    "-L", "-l", "-Xlinker", NULL,
};

/* cc flags this front passes on as they are (a prefix each; a flag not
 * here sends the whole command to ripcc-py). */
static int known_flag(const char *a)
{
    static const char *const exact[] = {
        "-ansi", "-pedantic", "-pedantic-errors", "-w", "-pipe", "-pthread",
        /* the link's */
        "-shared", "-rdynamic", "-s", "-static", "-pie", "-no-pie", "-static-libgcc", NULL,
    };
    if (is_one_of(a, exact))
        return 1;
    if (starts(a, "-I") || starts(a, "-D") || starts(a, "-U") || starts(a, "-O") ||
        starts(a, "-g") || starts(a, "-m") || starts(a, "-std=") || starts(a, "-L") ||
        starts(a, "-l"))
        return 1;
    if (starts(a, "-isystem") || starts(a, "-iquote") || starts(a, "-idirafter"))
        return 1;                       /* (joined: -isystem/opt/include) */
    if (starts(a, "-W"))                /* -Wp, hands the preprocessor flags unseen */
        return !starts(a, "-Wp,");
    if (starts(a, "-f"))                /* -fsanitize= picks the runtime: the driver's */
        return strcmp(a, "-fsyntax-only") != 0 && !starts(a, "-fsanitize") &&
               !starts(a, "-fno-sanitize");
    return 0;
}

/* Is `name` a shared library's: NAME.so, or NAME.so.1.7.15 and the like? */
static int shared_library(const char *name)
{
    const char *so = strstr(name, ".so");
    while (so && so[3] != '\0' && so[3] != '.')
        so = strstr(so + 1, ".so");
    if (!so || so == name)
        return 0;
    for (const char *p = so + 3; *p; p++)
        if (!(*p == '.' && p[1] >= '0' && p[1] <= '9') && !(*p >= '0' && *p <= '9'))
            return 0;
    return 1;
}

/* Fill `c` from argv; 0 if this front can do the command, else -1. */
static int read_command(int argc, char **argv, struct command *c)
{
    static const char *const blocking[] = {
        "-Wblocking", "-Wno-blocking", "-Werror=blocking", "-Wno-error=blocking", NULL,
    };
    int blocking_on = 1, quiet = 0;
    memset(c, 0, sizeof *c);
    c->backend = "rip";
    c->color = -1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strstr(a, "rip_async"))     /* a flag that could spell RIP_ASYNC's mark */
            return -1;
        if (starts(a, "--backend=")) {
            c->backend = a + 10;
        } else if (strcmp(a, "--backend") == 0) {
            if (++i == argc)
                return -1;
            c->backend = argv[i];
        } else if (is_one_of(a, blocking)) {
            if (strcmp(a, "-Wno-blocking") == 0)
                blocking_on = 0;
            else if (strcmp(a, "-Wblocking") == 0 || strcmp(a, "-Werror=blocking") == 0)
                blocking_on = 1;
        } else if (strcmp(a, "-c") == 0) {
            c->compile_only = 1;
            add(&c->args, a);
        } else if (strcmp(a, "-o") == 0) {
            if (++i == argc)
                return -1;
            c->output = argv[i];
        } else if (starts(a, "-o")) {
            c->output = a + 2;
        } else if (strcmp(a, "-MD") == 0 || strcmp(a, "-MP") == 0) {
            add(&c->depend, a);
            add(&c->args, a);
        } else if (strcmp(a, "-MF") == 0 || strcmp(a, "-MT") == 0 || strcmp(a, "-MQ") == 0) {
            if (++i == argc)
                return -1;
            add(&c->depend, a);
            add(&c->depend, argv[i]);
            add(&c->args, a);
            add(&c->args, argv[i]);
        } else if (starts(a, "-MF") || starts(a, "-MT") || starts(a, "-MQ")) {
            char *flag = strndup(a, 3);
            add(&c->depend, flag);
            add(&c->depend, a + 3);
            add(&c->args, a);
        } else if (is_one_of(a, separate_value)) {
            if (++i == argc)
                return -1;
            add(&c->flags, a);
            add(&c->flags, argv[i]);
            add(&c->args, a);
            add(&c->args, argv[i]);
        } else if (a[0] != '-') {
            add(&c->inputs, a);
            add(&c->args, a);
        } else if (known_flag(a)) {
            add(&c->args, a);
            if (strcmp(a, "-w") == 0)
                quiet = 1;
            if (strcmp(a, "-fdiagnostics-color") == 0 ||
                strcmp(a, "-fdiagnostics-color=always") == 0)
                c->color = 1;
            else if (strcmp(a, "-fno-diagnostics-color") == 0 ||
                     strcmp(a, "-fdiagnostics-color=never") == 0)
                c->color = 0;
            else if (strcmp(a, "-fdiagnostics-color=auto") == 0)
                c->color = -1;
            add(&c->flags, a);
        } else {
            return -1;
        }
    }
    c->blocking_off = !blocking_on || quiet;
    for (size_t i = 0; i < c->inputs.n; i++) {
        const char *in = c->inputs.at[i];
        size_t n = strlen(in);
        if (c->compile_only && c->inputs.n == 1 && n > 2 && strcmp(in + n - 2, ".c") == 0)
            c->source = in;
        else if (c->compile_only || c->depend.n ||
                 (!(n > 2 && (strcmp(in + n - 2, ".o") == 0 || strcmp(in + n - 2, ".a") == 0)) &&
                  !shared_library(in)))
            return -1;                  /* sources to link, .s, .i...: the driver's */
    }
    if (!c->inputs.n || (c->compile_only && !c->source))
        return -1;
    if (strcmp(c->backend, "rip") && strcmp(c->backend, "ucontext") &&
        strcmp(c->backend, "threads"))
        return -1;                      /* the driver names the backends */
    return 0;
}

/* ---- paths --------------------------------------------------------------- */

/* A path no compile can write and read back: under /dev or /proc, or there
 * and no regular file (a FIFO; a symlink, whose target a first compile
 * would write). */
static int special_path(const char *path)
{
    struct stat st;
    if (starts(path, "/dev/") || starts(path, "/proc/"))
        return 1;
    if (lstat(path, &st) != 0)
        return errno != ENOENT;
    return !S_ISREG(st.st_mode);
}

static int same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    return stat(a, &sa) == 0 && stat(b, &sb) == 0 &&
           sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

static int regular_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* "dir/name.c" -> "name" + `suffix`, newly allocated. */
static char *stem_with(const char *src, const char *suffix)
{
    const char *base = strrchr(src, '/') ? strrchr(src, '/') + 1 : src;
    const char *dot = strrchr(base, '.');
    size_t n = dot ? (size_t)(dot - base) : strlen(base);
    char *out;
    if (asprintf(&out, "%.*s%s", (int)n, base, suffix) < 0)
        exit(1);
    return out;
}

/* Where PATH finds `program` (as the shell does), or NULL. */
static char *find_program(const char *program)
{
    if (strchr(program, '/'))
        return access(program, X_OK) == 0 && regular_file(program) ? strdup(program) : NULL;
    const char *path = getenv("PATH");
    if (!path)
        path = "/bin:/usr/bin";
    while (*path) {
        size_t n = strcspn(path, ":");
        char *full;
        if (asprintf(&full, "%.*s/%s", (int)(n ? n : 1), n ? path : ".", program) < 0)
            exit(1);
        if (access(full, X_OK) == 0 && regular_file(full))
            return full;
        free(full);
        path += n + (path[n] == ':');
    }
    return NULL;
}

/* ---- whole files ----------------------------------------------------- */

/* The bytes of `path` (NUL-terminated, `*len` long), or NULL. */
static char *read_file(const char *path, size_t *len)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap + 1);
    for (;;) {
        if (!buf)
            break;
        if (n == cap) {
            cap *= 2;
            char *more = realloc(buf, cap + 1);
            if (!more) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = more;
        }
        ssize_t got = read(fd, buf + n, cap - n);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0) {
            free(buf);
            buf = NULL;
            break;
        }
        if (got == 0)
            break;
        n += (size_t)got;
    }
    close(fd);
    if (buf) {
        buf[n] = '\0';
        *len = n;
    }
    return buf;
}

static int word_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '_';
}

/* Does source text `s` name the runtime (rip_ or RIP_ starting a word, or
 * rip.h)?  Then it is ripped: the driver's _NAMES_THE_RUNTIME. */
static int names_the_runtime(const char *s, size_t n)
{
    for (size_t i = 0; i + 4 <= n; i++) {
        if ((memcmp(s + i, "rip_", 4) == 0 || memcmp(s + i, "RIP_", 4) == 0) &&
            (i == 0 || !word_char(s[i - 1])))
            return 1;
        if (i + 5 <= n && memcmp(s + i, "rip.h", 5) == 0)
            return 1;
    }
    return 0;
}

/* Could a compile that read the files of dependency list `listed` (make's
 * syntax: "f.o: f.c a.h \\\n b.h") have seen RIP_ASYNC's mark?  Yes if one
 * is a rip.h, spells rip_async, is no regular file or cannot be read, or
 * the list is empty or unreadable. */
static int may_hold_async(char *listed)
{
    char *end = listed;
    /* the first rule, its continuation lines joined */
    for (char *p = listed; *p; p++) {
        if (p[0] == '\\' && p[1] == '\n') {
            p[0] = p[1] = ' ';
            continue;
        }
        if (*p == '\n') {
            *p = '\0';
            break;
        }
    }
    char *deps = strstr(listed, ": ");
    if (!*listed || !deps)
        return 1;
    deps += 2;
    for (;;) {
        while (*deps == ' ' || *deps == '\t')
            deps++;
        if (!*deps)
            return 0;
        /* one name: up to white space no backslash escapes; \  \# $$ undone */
        char *name = deps, *out = deps;
        for (end = deps; *end && !((*end == ' ' || *end == '\t') && end[-1] != '\\'); end++)
            ;
        char *next = *end ? end + 1 : end;
        for (char *p = deps; p < end; p++) {
            if (p[0] == '\\' && (p[1] == ' ' || p[1] == '#') && p + 1 < end)
                p++;
            else if (p[0] == '$' && p[1] == '$' && p + 1 < end)
                p++;
            *out++ = *p;
        }
        *out = '\0';
        deps = next;
        const char *base = strrchr(name, '/') ? strrchr(name, '/') + 1 : name;
        if (strcmp(base, "rip.h") == 0)
            return 1;
        if (strcmp(name, frame_header) == 0)
            continue;
        if (!regular_file(name))
            return 1;                   /* a FIFO would never end a read */
        size_t n;
        char *text = read_file(name, &n);
        if (!text)
            return 1;
        int marked = memmem(text, n, "rip_async", 9) != NULL;
        free(text);
        if (marked)
            return 1;
    }
}

/* ---- running cc -------------------------------------------------------- */

static void write_all(int fd, const char *p, size_t n)
{
    for (size_t done = 0; done < n;) {
        ssize_t w = write(fd, p + done, n - done);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            break;
        done += (size_t)w;
    }
}

static volatile sig_atomic_t signalled;     /* SIGINT, SIGTERM or SIGHUP that came */
static pid_t child;                          /* cc, leading its own process group */

static const int ending_signals[] = {SIGINT, SIGTERM, SIGHUP};

static void on_signal(int sig)
{
    if (sig == SIGALRM) {                   /* a second after: what is left is killed */
        if (child > 0)
            kill(-child, SIGKILL);
        return;
    }
    if (!signalled) {
        signalled = sig;
        alarm(1);
    }
    if (child > 0)
        kill(-child, sig);                  /* gcc removes its half-written output */
}

/* Catch `ending_signals` (one ignored stays ignored), or, in the child
 * about to run cc, set back to their defaults what was caught. */
static void catch_signals(int catch)
{
    for (size_t i = 0; i < sizeof ending_signals / sizeof *ending_signals; i++) {
        struct sigaction old, sa = {.sa_handler = catch ? on_signal : SIG_DFL};
        sigemptyset(&sa.sa_mask);
        sa.sa_flags = SA_RESTART;
        if (sigaction(ending_signals[i], NULL, &old) == 0 && old.sa_handler != SIG_IGN)
            sigaction(ending_signals[i], &sa, NULL);
    }
    struct sigaction alarm_sa = {.sa_handler = catch ? on_signal : SIG_DFL};
    sigemptyset(&alarm_sa.sa_mask);
    alarm_sa.sa_flags = SA_RESTART;
    sigaction(SIGALRM, &alarm_sa, NULL);
}

/* After a signal: give cc's group a second, SIGKILL what is left, remove
 * `temporary`, die of the signal as cc would. */
static void die_of_signal(const char *temporary)
{
    int sig = signalled;
    if (child > 0) {                        /* cc's own children, if any are left */
        struct timespec pause = {0, 10 * 1000 * 1000};
        for (int i = 0; i < 100 && kill(-child, 0) == 0; i++)
            nanosleep(&pause, NULL);
        kill(-child, SIGKILL);
    }
    if (temporary)
        unlink(temporary);
    signal(sig, SIG_DFL);
    raise(sig);
    _exit(128 + sig);
}

/* Run `cmd`, its standard error into `*said` (`*said_len` bytes); its
 * exit status (128 + N if signal N ended it), or -1 if it could not run. */
static int run_holding_messages(char **cmd, char **said, size_t *said_len,
                                const char *temporary)
{
    int pipefd[2];
    if (pipe2(pipefd, O_CLOEXEC) != 0)
        return -1;
    catch_signals(1);
    sigset_t all, old;
    sigfillset(&all);
    sigprocmask(SIG_BLOCK, &all, &old);     /* `child` is set before a handler reads it */
    child = fork();
    if (child == 0) {
        catch_signals(0);               /* a signal that came after the fork ends it */
        sigprocmask(SIG_SETMASK, &old, NULL);
        setpgid(0, 0);
        dup2(pipefd[1], 2);
        setenv("RIPCC_RUNNING", "1", 1);    /* a wrapper that calls ripcc back: refused */
        execvp(cmd[0], cmd);
        fprintf(stderr, "ripcc: error: cannot run %s: %s\n", cmd[0], strerror(errno));
        _exit(127);
    }
    if (child > 0)
        setpgid(child, child);
    sigprocmask(SIG_SETMASK, &old, NULL);
    close(pipefd[1]);
    if (child < 0) {
        close(pipefd[0]);
        return -1;
    }
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    for (;;) {
        if (n == cap) {
            cap *= 2;
            buf = realloc(buf, cap);
        }
        if (!buf) {
            perror("ripcc");
            exit(1);
        }
        ssize_t got = read(pipefd[0], buf + n, cap - n);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            break;
        n += (size_t)got;
    }
    close(pipefd[0]);
    int status;
    while (waitpid(child, &status, 0) < 0 && errno == EINTR)
        ;
    if (signalled)
        die_of_signal(temporary);
    *said = buf;
    *said_len = n;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}


/* ---- a wheel's runtime library: where the driver builds it ------------- */

/* SHA-256 (FIPS 180-4), for the name of the driver's cached library. */
struct sha256 {
    uint32_t h[8];                      /* the hash so far */
    unsigned char block[64];            /* input not yet hashed */
    size_t used;                        /* bytes of it in block */
    uint64_t total;                     /* bytes given in all */
};

static const uint32_t sha256_k[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4,
    0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe,
    0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f,
    0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
    0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc,
    0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
    0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116,
    0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
    0xc67178f2,
};

static uint32_t rotr(uint32_t x, int n)
{
    return (x >> n) | (x << (32 - n));
}

static void sha256_block(struct sha256 *s, const unsigned char *p)
{
    uint32_t w[64], v[8];
    for (int i = 0; i < 16; i++)
        w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 |
               (uint32_t)p[4 * i + 2] << 8 | p[4 * i + 3];
    for (int i = 16; i < 64; i++)
        w[i] = w[i - 16] + (rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3)) +
               w[i - 7] + (rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10));
    memcpy(v, s->h, sizeof v);
    for (int i = 0; i < 64; i++) {
        uint32_t t1 = v[7] + (rotr(v[4], 6) ^ rotr(v[4], 11) ^ rotr(v[4], 25)) +
                      ((v[4] & v[5]) ^ (~v[4] & v[6])) + sha256_k[i] + w[i];
        uint32_t t2 = (rotr(v[0], 2) ^ rotr(v[0], 13) ^ rotr(v[0], 22)) +
                      ((v[0] & v[1]) ^ (v[0] & v[2]) ^ (v[1] & v[2]));
        memmove(v + 1, v, 7 * sizeof *v);
        v[4] += t1;
        v[0] = t1 + t2;
    }
    for (int i = 0; i < 8; i++)
        s->h[i] += v[i];
}

static void sha256_init(struct sha256 *s)
{
    static const uint32_t start[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                      0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
    memcpy(s->h, start, sizeof start);
    s->used = 0;
    s->total = 0;
}

static void sha256_add(struct sha256 *s, const void *data, size_t n)
{
    const unsigned char *p = data;
    s->total += n;
    while (n) {
        size_t take = 64 - s->used < n ? 64 - s->used : n;
        memcpy(s->block + s->used, p, take);
        s->used += take;
        p += take;
        n -= take;
        if (s->used == 64) {
            sha256_block(s, s->block);
            s->used = 0;
        }
    }
}

/* The hash as 64 hex digits into `hex` (65 bytes). */
static void sha256_hex(struct sha256 *s, char *hex)
{
    uint64_t bits = s->total * 8;
    unsigned char pad = 0x80, zero = 0, length[8];
    sha256_add(s, &pad, 1);
    while (s->used != 56)
        sha256_add(s, &zero, 1);
    for (int i = 0; i < 8; i++)
        length[i] = (unsigned char)(bits >> (56 - 8 * i));
    sha256_add(s, length, 8);
    for (int i = 0; i < 8; i++)
        sprintf(hex + 8 * i, "%08x", s->h[i]);
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The runtime library of `backend` an installed ripcc-py builds for
 * compiler `cc` (the driver's runtime._cached_library names it after a
 * hash of ripper's version, the compiler, the flags and every runtime
 * source), or NULL if it has not been built yet. */
static char *cached_library(const char *backend, const struct words *cc)
{
    static const char *const cflags[] = {"-std=gnu11", "-O2", "-g", "-Wall", "-Wextra", "-fPIC",
                                         "-pthread", NULL};    /* runtime.CFLAGS */
    struct sha256 key;
    struct stat st;
    char *path = find_program(cc->at[0]), hex[65], *lib, mtime[32], size[32];
    if (!*RIPCC_VERSION || !path || stat(path, &st) != 0)
        return NULL;                    /* (a front built without ripper's version) */
    snprintf(mtime, sizeof mtime, "%lld",
             (long long)st.st_mtim.tv_sec * 1000000000LL + st.st_mtim.tv_nsec);
    snprintf(size, sizeof size, "%lld", (long long)st.st_size);
    sha256_init(&key);
    /* each part and a NUL, as the driver feeds its hash */
    const char *parts[] = {RIPCC_VERSION, path, mtime, size};
    for (size_t i = 0; i < sizeof parts / sizeof *parts; i++)
        sha256_add(&key, parts[i], strlen(parts[i]) + 1);
    for (size_t i = 0; i < cc->n; i++)
        sha256_add(&key, cc->at[i], strlen(cc->at[i]) + 1);
    for (int i = 0; cflags[i]; i++)
        sha256_add(&key, cflags[i], strlen(cflags[i]) + 1);
    char *pattern;
    glob_t found;
    char *scripts;                      /* the gdb script every program carries */
    if (asprintf(&pattern, "%s/src/*/*.[ch]", runtime_dir) < 0 ||
        asprintf(&scripts, "%s/src/*/*.py", runtime_dir) < 0 ||
        glob(pattern, GLOB_NOSORT, NULL, &found) != 0)
        return NULL;
    int more = glob(scripts, GLOB_NOSORT | GLOB_APPEND, NULL, &found);
    if (more != 0 && more != GLOB_NOMATCH)
        return NULL;
    qsort(found.gl_pathv, found.gl_pathc, sizeof *found.gl_pathv, by_name);
    char *headers[2];
    if (asprintf(&headers[0], "%s/rip.h", include_dir) < 0 ||
        asprintf(&headers[1], "%s/rip_posix.h", include_dir) < 0)
        return NULL;
    for (size_t i = 0; i < found.gl_pathc + 2; i++) {
        const char *f = i < found.gl_pathc ? found.gl_pathv[i] : headers[i - found.gl_pathc];
        size_t n;
        char *text = read_file(f, &n);
        if (!text)
            return NULL;
        const char *relative = f + strlen(runtime_dir) + 1;
        sha256_add(&key, relative, strlen(relative) + 1);
        sha256_add(&key, text, n);
        free(text);
    }
    globfree(&found);
    sha256_hex(&key, hex);
    const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    if (xdg && xdg[0] == '/') {
        if (asprintf(&lib, "%s/ripper/%.20s/librip-%s.a", xdg, hex, backend) < 0)
            return NULL;
    } else if (!home || !*home ||
               asprintf(&lib, "%s/.cache/ripper/%.20s/librip-%s.a", home, hex, backend) < 0) {
        return NULL;
    }
    return regular_file(lib) ? lib : NULL;
}

/* ---- a link: what the driver's reading of the objects would find ------- */

/* Section `i` of ELF object `d` (`n` bytes, header `eh`) into `out`; -1 if
 * it lies outside the file. */
static int section_at(const unsigned char *d, size_t n, const Elf64_Ehdr *eh, size_t i,
                      Elf64_Shdr *out)
{
    if (i >= eh->e_shnum)
        return -1;
    memcpy(out, d + eh->e_shoff + i * sizeof *out, sizeof *out);
    if (out->sh_type != SHT_NOBITS && (out->sh_offset > n || out->sh_size > n - out->sh_offset))
        return -1;
    return 0;
}

/* The string at `at` of string table `table`, or NULL. */
static const char *string_at(const unsigned char *d, const Elf64_Shdr *table, size_t at)
{
    if (at >= table->sh_size)
        return NULL;
    const char *s = (const char *)d + table->sh_offset + at;
    return memchr(s, '\0', table->sh_size - at) ? s : NULL;
}

/* Does ELF object `d` (`n` bytes) take the driver's link: built for another
 * backend than `backend` (rip.h's rip__built_for_B), compiled with --posix
 * (rip__built_posix, or its record to rip again, .rip_rerip), slim LTO
 * (whose symbols are not in its ELF table), or an ELF this front does not
 * read? */
static int object_needs_driver(const unsigned char *d, size_t n, const char *backend)
{
    Elf64_Ehdr eh;
    Elf64_Shdr names, sh, strings;
    if (n < sizeof eh || memcmp(d, ELFMAG, SELFMAG) != 0 || d[EI_CLASS] != ELFCLASS64 ||
        d[EI_DATA] != ELFDATA2LSB)
        return 1;
    memcpy(&eh, d, sizeof eh);
    if (eh.e_shentsize != sizeof(Elf64_Shdr) || eh.e_shnum == 0 || eh.e_shoff > n ||
        (n - eh.e_shoff) / sizeof(Elf64_Shdr) < eh.e_shnum ||
        section_at(d, n, &eh, eh.e_shstrndx, &names) != 0)
        return 1;
    for (size_t i = 0; i < eh.e_shnum; i++) {
        if (section_at(d, n, &eh, i, &sh) != 0)
            return 1;
        const char *name = string_at(d, &names, sh.sh_name);
        if (!name || starts(name, ".gnu.lto_") || strcmp(name, ".rip_rerip") == 0)
            return 1;
        if (sh.sh_type != SHT_SYMTAB)
            continue;
        if (sh.sh_entsize != sizeof(Elf64_Sym) || section_at(d, n, &eh, sh.sh_link, &strings))
            return 1;
        for (size_t k = 0; k < sh.sh_size / sizeof(Elf64_Sym); k++) {
            Elf64_Sym sym;
            memcpy(&sym, d + sh.sh_offset + k * sizeof sym, sizeof sym);
            const char *s = string_at(d, &strings, sym.st_name);
            if (!s)
                return 1;
            if ((starts(s, "rip__built_for_") && strcmp(s + 15, backend) != 0) ||
                strcmp(s, "rip__built_posix") == 0)
                return 1;
        }
    }
    return 0;
}

/* object_needs_driver for an object, or any member of a GNU archive. */
static int input_needs_driver(const char *path, const char *backend)
{
    size_t n;
    unsigned char *d = (unsigned char *)read_file(path, &n);
    int needs = 1;
    if (!d)
        return 1;                       /* the driver and cc say why */
    if (n >= 8 && memcmp(d, "!<arch>\n", 8) == 0) {
        size_t at = 8;
        needs = 0;
        while (!needs && at + 60 <= n) {
            const unsigned char *h = d + at;
            char size_text[11], *end;
            memcpy(size_text, h + 48, 10);
            size_text[10] = '\0';
            unsigned long long size = strtoull(size_text, &end, 10);
            if (h[58] != '`' || h[59] != '\n' || end == size_text || size > n - at - 60)
                needs = 1;              /* damaged */
            else if (memcmp(h, "/ ", 2) == 0 || memcmp(h, "// ", 3) == 0 ||
                     memcmp(h, "/SYM64/ ", 8) == 0)
                ;                       /* the symbol index, the long names */
            else
                needs = object_needs_driver(h + 60, (size_t)size, backend);
            at += 60 + (size_t)size + (size & 1);
        }
    } else {
        needs = object_needs_driver(d, n, backend);  /* (a thin archive too) */
    }
    free(d);
    return needs;
}

/* Is the clone's runtime library `lib` of `backend` at least as new as
 * every source and header it is built from (the driver's _stale)? */
static int library_fresh(const char *lib, const char *backend)
{
    struct stat built, st;
    if (stat(lib, &built) != 0)
        return 0;
    char *patterns[6];
    int n = 0;
    if (asprintf(&patterns[n++], "%s/src/%s/*.c", runtime_dir, backend) < 0 ||
        asprintf(&patterns[n++], "%s/src/*/*.h", runtime_dir) < 0 ||
        asprintf(&patterns[n++], "%s/src/*/*.py", runtime_dir) < 0 ||
        asprintf(&patterns[n++], "%s/include/rip*.h", runtime_dir) < 0 ||
        (strcmp(backend, "threads") != 0 &&
         asprintf(&patterns[n++], "%s/src/core/*.c", runtime_dir) < 0))
        return 0;
    int fresh = 1;
    for (int p = 0; p < n; p++) {
        glob_t found;
        if (glob(patterns[p], 0, NULL, &found) == 0) {
            for (size_t i = 0; i < found.gl_pathc && fresh; i++)
                if (stat(found.gl_pathv[i], &st) != 0 ||
                    st.st_mtim.tv_sec > built.st_mtim.tv_sec ||
                    (st.st_mtim.tv_sec == built.st_mtim.tv_sec &&
                     st.st_mtim.tv_nsec > built.st_mtim.tv_nsec))
                    fresh = 0;
            globfree(&found);
        }
        free(patterns[p]);
    }
    return fresh;
}

/* Link as the driver links: cc, the user's arguments in order, the
 * runtime library last.  Runs it if nothing needs the driver's checks,
 * its messages held: on success they are the build's; on failure the
 * driver links again, to explain an undefined async function.  Does not
 * return. */
static void link_program(const struct command *c, const struct words *cc,
                         const struct words *lib)
{
    struct words run = {0};
    const char *out = c->output ? c->output : "a.out";
    char *library;
    if (!cflags_file) {                 /* a wheel's: built on first use, by the driver */
        library = cached_library(c->backend, cc);
        if (!library)
            python_driver();
    } else if (asprintf(&library, "%.*s/librip-%s.a", (int)(strrchr(cflags_file, '/') - cflags_file),
                        cflags_file, c->backend) < 0 || !library_fresh(library, c->backend)) {
        python_driver();                /* to be built first */
    }
    if (special_path(out))
        python_driver();
    int shared = 0;
    for (size_t i = 0; i < c->args.n; i++)
        shared |= strcmp(c->args.at[i], "-shared") == 0;
    for (size_t i = 0; i < c->inputs.n; i++) {
        const char *in = c->inputs.at[i];
        size_t n = strlen(in);
        if (same_file(in, out))
            python_driver();
        if ((strcmp(in + n - 2, ".o") == 0 || strcmp(in + n - 2, ".a") == 0) &&
            input_needs_driver(in, c->backend))
            python_driver();
    }
    add_all(&run, cc);
    add_all(&run, lib);
    if (strcmp(c->backend, "rip") != 0)
        add(&run, strcmp(c->backend, "threads") == 0 ? "-DRIP_BACKEND_THREADS"
                                                      : "-DRIP_BACKEND_UCONTEXT");
    add_all(&run, &c->args);
    add(&run, "-o");
    add(&run, out);
    if (!shared)                        /* a shared library leaves it to the program */
        add(&run, library);
    add(&run, "-pthread");
    char *said = NULL;
    size_t said_len = 0;
    int status = run_holding_messages(run.at, &said, &said_len, NULL);
    if (status != 0)
        python_driver();
    write_all(2, said, said_len);
    exit(0);
}

/* ---- the compile ------------------------------------------------------- */

/* cc's command words: $RIPCC_CC split at spaces (no quoting: a value that
 * needs a shell's reading is the driver's), the first found on PATH. */
static int compiler(struct words *cc)
{
    const char *asked = getenv("RIPCC_CC");
    if (!asked || !*asked)
        asked = "cc";
    if (strpbrk(asked, "'\"\\$`"))
        return -1;
    char *copy = strdup(asked), *save = NULL;
    for (char *w = strtok_r(copy, " \t\n", &save); w; w = strtok_r(NULL, " \t\n", &save))
        add(cc, w);
    if (!cc->n)
        return -1;
    const char *base = strrchr(cc->at[0], '/') ? strrchr(cc->at[0], '/') + 1 : cc->at[0];
    if (strcmp(base, "ripcc") == 0 || strcmp(base, "ripcc-py") == 0)
        return -1;                      /* the driver says why that cannot work */
    char *found = find_program(cc->at[0]);
    if (!found)
        return -1;                      /* the driver names the missing compiler */
    free(found);                        /* (run as named: execvp finds the same) */
    return 0;
}

/* The runtime's flags for programs linked with it (the Makefile's
 * build/lib/cflags: empty, but for a sanitized build). */
static int runtime_flags(struct words *w)
{
    size_t n;
    if (!cflags_file)
        return 0;
    char *text = read_file(cflags_file, &n);
    if (!text)
        return -1;                      /* not built yet: the driver builds it */
    char *save = NULL;
    for (char *f = strtok_r(text, " \t\n", &save); f; f = strtok_r(NULL, " \t\n", &save))
        add(w, f);
    return 0;
}

static int wants_color(const struct command *c)
{
    if (c->color >= 0)
        return c->color;
    const char *term = getenv("TERM");
    return isatty(2) && !getenv("NO_COLOR") && !(term && strcmp(term, "dumb") == 0);
}

/* The dependency flags for the user's list, defaults written out as the
 * driver's _depend_flags writes them. */
static void user_depend(const struct command *c, const char *out, struct words *w)
{
    int mf = 0, mt = 0;
    for (size_t i = 0; i < c->depend.n; i++) {
        add(w, c->depend.at[i]);
        mf |= strcmp(c->depend.at[i], "-MF") == 0;
        mt |= strcmp(c->depend.at[i], "-MT") == 0 || strcmp(c->depend.at[i], "-MQ") == 0;
    }
    if (!mf) {
        char *d;
        const char *dot = strrchr(out, '.'), *slash = strrchr(out, '/');
        size_t n = dot && (!slash || dot > slash) ? (size_t)(dot - out) : strlen(out);
        if (asprintf(&d, "%.*s.d", (int)n, out) < 0)
            exit(1);
        add(w, "-MF");
        add(w, d);
    }
    if (!mt) {
        add(w, "-MT");
        add(w, out);
    }
}

int main(int argc, char **argv)
{
    struct command c;
    struct words cc = {0}, lib = {0}, run = {0}, deps = {0};
    argv_given = argv;
    const char *native = getenv("RIPCC_NATIVE");
    if ((native && strcmp(native, "0") == 0) || getenv("RIPCC_RUNNING") || getenv("RIP_SAN") ||
        getenv("RIPPER_TIMEOUT") || getenv("RIPPER_DEBUG") || getenv("DEPENDENCIES_OUTPUT") ||
        getenv("SUNPRO_DEPENDENCIES"))
        python_driver();
    if (read_command(argc, argv, &c) != 0 || find_runtime() != 0 || compiler(&cc) != 0 ||
        runtime_flags(&lib) != 0)
        python_driver();
    if (!c.compile_only)
        link_program(&c, &cc, &lib);
    const char *out = c.output ? c.output : stem_with(c.source, ".o");
    struct stat st;
    if (stat(c.source, &st) != 0 || !S_ISREG(st.st_mode) || same_file(c.source, out) ||
        special_path(out) || strcmp(out, "-") == 0)
        python_driver();                /* its messages, its way with odd files */
    int has_md = 0;
    for (size_t i = 0; i < c.depend.n; i++) {
        const char *d = c.depend.at[i];
        has_md |= strcmp(d, "-MD") == 0;
        if (i > 0 && strcmp(c.depend.at[i - 1], "-MF") == 0 &&
            (special_path(d) || same_file(c.source, d)))
            python_driver();
    }
    if (c.depend.n && !has_md)
        python_driver();                /* -MF alone: cc's own message */
    if (c.depend.n)
        user_depend(&c, out, &deps);

    int listing = strcmp(c.backend, "threads") != 0 &&
                  !(strcmp(c.backend, "ucontext") == 0 && c.blocking_off);
    add_all(&run, &cc);
    add_all(&run, &lib);
    if (strcmp(c.backend, "rip") == 0) {
        size_t n;
        char *text = read_file(c.source, &n);
        if (!text || names_the_runtime(text, n))
            python_driver();            /* to be ripped */
        free(text);
        add(&run, "-D__RIPPER__=1");
        add(&run, "-include");
        add(&run, frame_header);
        add_all(&run, &c.flags);
        add(&run, "-I");
        add(&run, include_dir);
    } else {
        add(&run, strcmp(c.backend, "threads") == 0 ? "-DRIP_BACKEND_THREADS"
                                                     : "-DRIP_BACKEND_UCONTEXT");
        add(&run, "-I");
        add(&run, include_dir);
        add_all(&run, &c.flags);
    }
    if (!listing) {                     /* threads, or a check turned off: cc, and done */
        add_all(&run, &deps);
        add(&run, "-c");
        add(&run, c.source);
        add(&run, "-o");
        add(&run, out);
        setenv("RIPCC_RUNNING", "1", 1);    /* a wrapper that calls ripcc back: refused */
        execvp(run.at[0], run.at);
        unsetenv("RIPCC_RUNNING");
        python_driver();
    }

    /* One compile, its header list read after. */
    char *own = NULL;
    const char *list;
    if (c.depend.n) {
        add_all(&run, &deps);
        list = NULL;
        for (size_t i = 0; i + 1 < deps.n; i++)
            if (strcmp(deps.at[i], "-MF") == 0)
                list = deps.at[i + 1];
    } else {
        const char *tmpdir = getenv("TMPDIR");
        if (asprintf(&own, "%s/ripcc-XXXXXX.d", tmpdir && *tmpdir ? tmpdir : "/tmp") < 0)
            exit(1);
        int fd = mkostemps(own, 2, O_CLOEXEC);
        if (fd < 0)
            python_driver();            /* no list to be had: the driver's */
        close(fd);
        add(&run, "-MD");
        add(&run, "-MF");
        add(&run, own);
        list = own;
    }
    add(&run, "-c");
    add(&run, c.source);
    add(&run, "-o");
    add(&run, out);
    if (wants_color(&c))
        add(&run, "-fdiagnostics-color=always");    /* its standard error is a pipe */
    char *said = NULL;
    size_t said_len = 0;
    int status = run_holding_messages(run.at, &said, &said_len, own);
    size_t listed_len = 0;
    char *listed = status < 0 || !list || !regular_file(list) ? NULL
                                                           : read_file(list, &listed_len);
    if (own)
        unlink(own);
    if (status < 0 || !listed || may_hold_async(listed)) {
        struct stat ost;
        if (lstat(out, &ost) == 0 && S_ISREG(ost.st_mode))
            unlink(out);                /* ripped (or checked) by the driver instead */
        python_driver();
    }
    write_all(2, said, said_len);
    return status;
}
