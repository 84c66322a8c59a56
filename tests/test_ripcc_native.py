"""ripcc's native front (launcher/ripcc.c): a compile that needs no ripping
starts no Python, and means what the Python driver (ripcc-py) means.

The front is built here from this tree's launcher/ripcc.c, beside a copy of
the installed ripcc-py, so that what is tested is the source (and `make
mutate` can break it).  Each command line runs twice in one folder, through
the front and with RIPCC_NATIVE=0 (the Python driver alone), and every
output must be the same: status, messages, object bytes, dependency list."""
import os
import shutil
import signal
import subprocess
import time

import pytest

from conftest import BIN, ROOT, run
from ripper import runtime

SOURCES = {
    "plain.c": "#include <stdio.h>\n#include \"inc/hdr.h\"\n"
               "int twice(int x) { return x * K; }\n"
               "void hello(void) { printf(\"%d\\n\", twice(N)); }\n",
    "inc/hdr.h": "#ifndef N\n#define N 1\n#endif\n#define K 2\n",
    "warns.c": "int f(int x) { int unused; return x; }\n",
    "broken.c": "int main(void) { int x = ; return 0; }\n",
    # no rip_ of its own: RIP_ASYNC comes through a header
    "via_header.c": "#include \"tasks.h\"\nASYNC_FN void pause_twice(void) { nap(); nap(); }\n",
    "tasks.h": "#include <rip.h>\n#define ASYNC_FN RIP_ASYNC\n"
               "static inline RIP_ASYNC void nap(void) { rip_yield(); }\n",
    # RIP_ASYNC and rip_yield in its text (rip.h through a header)
    "names_it.c": "#include \"tasks.h\"\nRIP_ASYNC void pause_once(void) { rip_yield(); }\n",
    # a plain blocking call in async code: ucontext's -Wblocking check
    "blocks.c": "#include <unistd.h>\n#include \"tasks.h\"\n"
                "RIP_ASYNC void sleepy(void) { nap(); sleep(1); }\n",
}


def _build_front(bin_dir, runtime_dir, cflags_file):
    """ripcc in `bin_dir`, built from launcher/ripcc.c for the runtime in
    `runtime_dir`, beside a copy of the installed ripcc-py."""
    exe = bin_dir / "ripcc"
    r = run(["cc", "-std=gnu11", "-O2", "-Wall", "-Wextra", "-Werror",
             '-DRIPCC_RUNTIME="%s"' % runtime_dir, '-DRIPCC_CFLAGS_FILE="%s"' % cflags_file,
             os.path.join(ROOT, "launcher", "ripcc.c"), "-o", str(exe)])
    assert r.returncode == 0, r.stderr.decode()
    shutil.copy(os.path.join(BIN, "ripcc-py"), str(bin_dir / "ripcc-py"))
    return str(exe)


@pytest.fixture(scope="module")
def front(tmp_path_factory):
    """ripcc built from launcher/ripcc.c for this tree's runtime."""
    # its libraries and cflags file, as the link of a first program makes them
    plain = {k: v for k, v in os.environ.items() if k != "RIP_SAN"}
    for backend in ("rip", "ucontext", "threads"):
        assert run([os.path.join(BIN, "ripcc-py"), "--backend=" + backend,
                    "--cflags"], env=plain).returncode == 0
    return _build_front(tmp_path_factory.mktemp("bin"), runtime.DIR,
                        os.path.join(os.path.dirname(runtime.DIR), "build", "lib", "cflags"))


@pytest.fixture
def project(tmp_path):
    for name, text in SOURCES.items():
        path = tmp_path / name
        path.parent.mkdir(exist_ok=True)
        path.write_text(text)
    (tmp_path / "out").mkdir()
    (tmp_path / "deps").mkdir()
    return tmp_path


def _env(tmp_path, **more):
    # (RIP_SAN=1, make test SAN=1's, sends every command to the driver: the
    # front is tested as it runs without it)
    env = {k: v for k, v in os.environ.items()
           if k not in ("RIPCC_NATIVE", "RIPCC_RUNNING", "RIP_SAN")}
    env["TMPDIR"] = str(tmp_path / "tmp")
    env.update(more)
    os.makedirs(env["TMPDIR"], exist_ok=True)
    return env


def _made(folder, before):
    """{path: bytes} of the files in `folder` that are not in `before`."""
    out = {}
    for dirpath, _, files in os.walk(str(folder)):
        for f in files:
            p = os.path.relpath(os.path.join(dirpath, f), str(folder))
            if p not in before:
                with open(os.path.join(dirpath, f), "rb") as fh:
                    out[p] = fh.read()
    return out


def _both(front, project, args, **env):
    """(native, python): each (status, standard error, {new file: bytes}),
    the same command run in the same folder through the front and through
    the Python driver alone (the files of the first removed before the
    second)."""
    before = set(_made(project, ()))
    results = []
    for native in ("1", "0"):
        r = run([front] + args, cwd=str(project), env=_env(project, RIPCC_NATIVE=native, **env))
        made = _made(project, before)
        for p in made:
            os.unlink(str(project / p))
        results.append((r.returncode, r.stderr.decode(), made))
    return results


COMMANDS = [
    ["-O2", "-g", "-c", "plain.c"],
    ["-Wall", "-Wextra", "-DN=3", "-I", "inc", "-c", "plain.c", "-o", "out/p.o"],
    ["-g3", "-O1", "-Iinc", "-include", "inc/hdr.h", "-c", "plain.c", "-o", "p.o"],
    ["-std=c89", "-pedantic", "-Werror", "-c", "plain.c", "-o", "p.o"],
    ["-MD", "-MP", "-c", "plain.c", "-o", "out/p.o"],
    ["-MD", "-MF", "deps/p.dep", "-MT", "target", "-c", "plain.c", "-o", "p.o"],
    ["-MD", "-MFdeps/j.d", "-MQ", "$(OBJ)", "-c", "plain.c", "-o", "p.o"],
    ["-Wall", "-c", "warns.c", "-o", "w.o"],
    ["-Wall", "-Werror", "-c", "warns.c", "-o", "w.o"],
    ["-Wall", "-fdiagnostics-color=always", "-c", "warns.c", "-o", "w.o"],
    ["-c", "broken.c", "-o", "b.o"],
    ["-O2", "-c", "via_header.c", "-o", "v.o"],
    ["-MD", "-c", "via_header.c", "-o", "v.o"],
    ["-c", "names_it.c", "-o", "n.o"],
    ["-Wall", "-c", "blocks.c", "-o", "k.o"],
    ["-Werror=blocking", "-c", "blocks.c", "-o", "k.o"],
    ["-Wno-blocking", "-c", "blocks.c", "-o", "k.o"],
    ["-w", "-c", "blocks.c", "-o", "k.o"],
]


@pytest.mark.parametrize("backend", ["rip", "ucontext", "threads"])
@pytest.mark.parametrize("args", COMMANDS, ids=[" ".join(c) for c in COMMANDS])
def test_native_front_does_what_the_python_driver_does(front, project, backend, args):
    native, python = _both(front, project, ["--backend=" + backend] + args)
    assert native[0] == python[0], (native[1], python[1])
    assert native[1] == python[1]
    assert sorted(native[2]) == sorted(python[2])
    for path in native[2]:
        assert native[2][path] == python[2][path], path


LINK_SOURCES = {
    "prog.c": "#include <rip.h>\nvoid hello(void);\n"
              "static void task(void *arg) { (void)arg; rip_yield(); hello(); }\n"
              "int main(void) { return rip_run(task, 0); }\n",
    "callee.c": "#include <rip.h>\nRIP_ASYNC void count(void) { rip_yield(); }\n",
    "caller.c": "#include <rip.h>\nvoid count(void);\n"
                "static void task(void *arg) { (void)arg; count(); }\n"
                "int main(void) { return rip_run(task, 0); }\n",
}


def _objects(front, project, backend):
    """The objects the links below take, compiled by the Python driver."""
    for name, text in LINK_SOURCES.items():
        (project / name).write_text(text)
    env = _env(project, RIPCC_NATIVE="0")
    for args in (["-c", "prog.c"], ["-c", "plain.c"], ["-fPIC", "-c", "plain.c", "-o", "pic.o"],
                 ["-c", "callee.c"], ["-c", "caller.c"]):
        r = run([front, "--backend=" + backend] + args, cwd=str(project), env=env)
        assert r.returncode == 0, r.stderr.decode()
    other = "threads" if backend != "threads" else "rip"
    r = run([front, "--backend=" + other, "-c", "names_it.c", "-o", "other.o"],
            cwd=str(project), env=env)
    assert r.returncode == 0, r.stderr.decode()
    assert run(["ar", "rcs", "libplain.a", "plain.o"], cwd=str(project)).returncode == 0
    assert run(["cc", "-shared", "pic.o", "-o", "libp.so.1.2"], cwd=str(project)).returncode == 0
    assert run(["ar", "rcs", "libmixed.a", "plain.o", "other.o"],
               cwd=str(project)).returncode == 0


LINKS = [
    ["prog.o", "plain.o", "-o", "prog"],
    ["prog.o", "libplain.a", "-lm", "-o", "prog"],
    ["prog.o", "-L.", "-lplain", "-Wl,--as-needed", "-o", "prog"],
    ["-shared", "pic.o", "-o", "libp.so"],
    ["-O2", "-g", "prog.o", "plain.o"],
    ["prog.o", "plain.o", "other.o", "-o", "prog"],
    ["prog.o", "libmixed.a", "-o", "prog"],
    ["caller.o", "callee.o", "-o", "prog"],
    ["prog.o", "-o", "prog"],
    ["prog.o", "libp.so.1.2", "-Wl,-rpath,.", "-o", "prog"],
]


@pytest.mark.parametrize("backend", ["rip", "ucontext", "threads"])
def test_native_front_links_as_the_python_driver_links(front, project, backend):
    _objects(front, project, backend)
    for args in LINKS:
        native, python = _both(front, project, ["--backend=" + backend] + args)
        assert native[0] == python[0], (args, native[1], python[1])
        assert native[1] == python[1], args
        assert sorted(native[2]) == sorted(python[2]), args
        for path in native[2]:
            assert native[2][path] == python[2][path], (args, path)
    r = run([front, "--backend=" + backend, "prog.o", "plain.o", "-o", "prog"], cwd=str(project),
            env=_env(project))
    assert r.returncode == 0, r.stderr.decode()
    assert run([str(project / "prog")]).stdout == b"2\n"


def test_a_link_of_plain_objects_starts_no_python_and_others_go_to_the_driver(front, project):
    _objects(front, project, "ucontext")
    env, marker = _python_marker(project)
    for library in ("libplain.a", "libp.so.1.2"):  # (CMake links a library by its versioned name)
        r = run([front, "--backend=ucontext", "prog.o", library, "-o", "prog"],
                cwd=str(project), env=env)
        assert r.returncode == 0, r.stderr.decode()
        assert not marker.exists(), library
    r = run([front, "--backend=ucontext", "prog.o", "libmixed.a", "-o", "prog"],
            cwd=str(project), env=env)
    assert r.returncode != 0 and b"built for threads" in r.stderr, r.stderr
    assert marker.exists()


def _python_marker(tmp_path):
    """An environment in which any Python started writes a file, and that
    file's path: sitecustomize runs at every interpreter's start."""
    site = tmp_path / "site"
    site.mkdir()
    marker = tmp_path / "python-started"
    (site / "sitecustomize.py").write_text("open(%r, 'a').write('x')\n" % str(marker))
    return _env(tmp_path, PYTHONPATH=str(site)), marker


@pytest.mark.parametrize("backend", ["rip", "ucontext", "threads"])
def test_a_file_with_no_async_function_is_compiled_without_starting_python(
        front, project, backend):
    env, marker = _python_marker(project)
    r = run([front, "--backend=" + backend, "-O2", "-MD", "-c", "plain.c", "-o", "p.o"],
            cwd=str(project), env=env)
    assert r.returncode == 0, r.stderr.decode()
    assert (project / "p.o").exists() and (project / "p.d").exists()
    assert not marker.exists()
    assert os.listdir(env["TMPDIR"]) == []      # its own header list removed


@pytest.mark.parametrize("backend", ["rip", "ucontext"])
def test_a_file_a_header_gives_an_async_function_goes_to_the_python_driver(
        front, project, backend):
    env, marker = _python_marker(project)
    r = run([front, "--backend=" + backend, "-c", "via_header.c", "-o", "v.o"],
            cwd=str(project), env=env)
    assert r.returncode == 0, r.stderr.decode()
    assert marker.exists()
    symbols = run(["nm", str(project / "v.o")]).stdout.decode()
    assert ("rip__resume_pause_twice" in symbols) == (backend == "rip"), symbols


def test_a_source_naming_the_runtime_is_ripped_without_a_first_compile(front, project):
    slow = project / "slowcc"         # counts the compiles
    slow.write_text("#!/bin/sh\necho \"$*\" >> %s\nexec cc \"$@\"\n" % (project / "compiles"))
    slow.chmod(0o755)
    r = run([front, "-c", "names_it.c", "-o", "n.o"], cwd=str(project),
            env=_env(project, RIPCC_CC=str(slow)))
    assert r.returncode == 0, r.stderr.decode()
    assert "rip__resume_pause_once" in run(["nm", str(project / "n.o")]).stdout.decode()
    assert "-MD" not in (project / "compiles").read_text()  # (the list is the driver's)


def test_other_commands_go_to_the_python_driver_with_the_same_arguments(front, project):
    env, marker = _python_marker(project)
    for args in (["--backend=bogus", "-c", "plain.c"], ["-x", "c", "-c", "plain.c"],
                 ["plain.c", "-o", "prog", "-shared", "-fPIC"], ["-E", "plain.c"],
                 ["--version"]):
        if marker.exists():
            marker.unlink()
        r = run([front] + args, cwd=str(project), env=env)
        assert marker.exists(), args
        assert b"ripcc-py" not in r.stderr, r.stderr   # it speaks as ripcc
    r = run([front, "--backend=bogus", "-c", "plain.c"], cwd=str(project), env=env)
    assert r.returncode == 2 and b"unknown backend 'bogus'" in r.stderr


@pytest.mark.parametrize("backend", ["rip", "ucontext", "threads"])
def test_a_compiler_that_calls_ripcc_back_is_refused_at_once(front, project, backend):
    wrapper = project / "wrapcc"
    wrapper.write_text("#!/bin/sh\nexec %s \"$@\"\n" % front)
    wrapper.chmod(0o755)
    r = run([front, "--backend=" + backend, "-c", "plain.c", "-o", "p.o"], cwd=str(project),
            env=_env(project, RIPCC_CC=str(wrapper)), timeout=60)
    assert r.returncode != 0
    assert b"ripcc was run as the C compiler of ripcc" in r.stderr


@pytest.mark.parametrize("compiler", ["exec sleep 60", "trap '' TERM; exec sleep 60"],
                         ids=["ends", "ignores_sigterm"])
def test_a_signal_ends_the_compile_and_leaves_no_temporary(front, project, compiler):
    """cc is sent the signal; one that outlives it a second is killed."""
    slow = project / "slowcc"
    slow.write_text("#!/bin/sh\n%s\n" % compiler)
    slow.chmod(0o755)
    env = _env(project, RIPCC_CC=str(slow))
    p = subprocess.Popen([front, "--backend=ucontext", "-c", "plain.c", "-o", "p.o"],
                         cwd=str(project), env=env, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 20
        while not os.listdir(env["TMPDIR"]) and time.monotonic() < deadline:
            time.sleep(0.02)
        assert os.listdir(env["TMPDIR"]), "no header list made"
        time.sleep(0.2)
        p.send_signal(signal.SIGTERM)
        assert p.wait(timeout=10) == -signal.SIGTERM
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
    assert os.listdir(env["TMPDIR"]) == []
    assert _sleepers_in(str(project)) == []


def _sleepers_in(folder):
    """The ids of the `sleep` processes working in `folder`."""
    out = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open("/proc/%s/comm" % pid) as f:
                if f.read().strip() == "sleep" and os.readlink("/proc/%s/cwd" % pid) == folder:
                    out.append(pid)
        except OSError:
            pass
    return out


def test_make_venv_installs_the_native_front_as_ripcc():
    with open(os.path.join(BIN, "ripcc"), "rb") as f:
        assert f.read(4) == b"\x7fELF"
    assert os.access(os.path.join(BIN, "ripcc-py"), os.X_OK)


def test_a_link_against_a_runtime_older_than_its_sources_goes_to_the_driver(front, project):
    """The driver builds the runtime library again first (the front links
    only against one at least as new as every runtime source)."""
    clone = project / "clone"
    shutil.copytree(runtime.DIR, str(clone / "runtime"))       # (times kept)
    built = os.path.join(os.path.dirname(runtime.DIR), "build", "lib")
    (clone / "build" / "lib").mkdir(parents=True)
    for name in ("cflags", "librip-ucontext.a"):
        shutil.copy2(os.path.join(built, name), str(clone / "build" / "lib" / name))
    (project / "bin").mkdir()
    own = _build_front(project / "bin", str(clone / "runtime"),
                       str(clone / "build" / "lib" / "cflags"))
    _objects(front, project, "ucontext")
    env, marker = _python_marker(project)
    link = [own, "--backend=ucontext", "prog.o", "plain.o", "-o", "prog"]
    assert run(link, cwd=str(project), env=env).returncode == 0
    assert not marker.exists()
    later = os.stat(str(clone / "build" / "lib" / "librip-ucontext.a")).st_mtime + 10
    os.utime(str(clone / "runtime" / "src" / "core" / "sched.c"), (later, later))
    r = run(link, cwd=str(project), env=env)
    assert r.returncode == 0, r.stderr.decode()
    assert marker.exists()
