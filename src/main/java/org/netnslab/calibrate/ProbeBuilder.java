package org.netnslab.calibrate;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Builds the probe programs with the system's C compiler on first use, as the launcher builds the jar: the C
 * sources travel in the jar ({@code probes/*.c}, from src/main/c), are written to {@code <dir>/src} and compiled
 * to {@code <dir>/<name>}; a build is redone only when the sources' hash changes. The compiler is {@code $CC},
 * else {@code cc} on PATH.
 */
public final class ProbeBuilder {
    /** The probe programs, one per kind of measurement. */
    public static final List<String> PROBES = List.of("sched_probe", "uevent_probe", "proc_probe", "netns_probe");

    private static final List<String> SOURCES =
            List.of("probe.h", "sched_probe.c", "uevent_probe.c", "proc_probe.c", "netns_probe.c");

    private ProbeBuilder() {}

    /**
     * @param dir where the binaries go (e.g. target/probes)
     * @return dir, with every probe built from the current sources
     * @throws ProbeException no C compiler, or a compile error (its output in the message)
     * @throws IOException the folder cannot be written
     */
    public static Path build(Path dir) throws ProbeException, IOException {
        return build(dir, System.getenv());
    }

    /**
     * @param dir where the binaries go
     * @param env the environment whose CC and PATH find the compiler
     * @return dir, with every probe built from the current sources
     * @throws ProbeException no C compiler, or a compile error
     * @throws IOException the folder cannot be written
     */
    public static Path build(Path dir, java.util.Map<String, String> env) throws ProbeException, IOException {
        Files.createDirectories(dir.resolve("src"));
        // one build at a time: two calibrate runs starting together would both rewrite the binaries
        try (java.nio.channels.FileChannel ch = java.nio.channels.FileChannel.open(
                        dir.resolve(".build.lock"),
                        java.nio.file.StandardOpenOption.CREATE,
                        java.nio.file.StandardOpenOption.WRITE);
                java.nio.channels.FileLock lock = ch.lock()) {
            return buildLocked(dir, env);
        }
    }

    private static Path buildLocked(Path dir, java.util.Map<String, String> env) throws ProbeException, IOException {
        MessageDigest sha;
        try {
            sha = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
        for (String s : SOURCES) {
            byte[] text = source(s);
            sha.update(text);
            Files.write(dir.resolve("src").resolve(s), text);
        }
        String hash = HexFormat.of().formatHex(sha.digest());
        Path stamp = dir.resolve(".sources.sha256");
        boolean fresh = Files.exists(stamp)
                && Files.readString(stamp).trim().equals(hash)
                && PROBES.stream().allMatch(p -> Files.isExecutable(dir.resolve(p)));
        if (fresh) {
            return dir;
        }
        String cc = compiler(env);
        for (String p : PROBES) {
            // CC may carry words of its own ("ccache gcc", "gcc -m64"), as make's convention has it
            List<String> cmd = new ArrayList<>(List.of(cc.trim().split("\\s+")));
            cmd.addAll(List.of(
                    "-O2",
                    "-Wall",
                    "-o",
                    dir.resolve(p).toString(),
                    dir.resolve("src").resolve(p + ".c").toString()));
            Files.deleteIfExists(dir.resolve(p));
            Process proc;
            try {
                proc = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            } catch (IOException e) {
                throw new ProbeException(
                        "a C compiler",
                        cc + " cannot be started: " + e.getMessage(),
                        "install gcc (e.g. apt-get install gcc) or set CC to a C compiler");
            }
            String out = new String(proc.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            try {
                if (!proc.waitFor(120, TimeUnit.SECONDS)) {
                    proc.destroyForcibly();
                    throw new ProbeException(
                            "a working C compiler", cc + " took over 120 s on " + p + ".c", "check the compiler");
                }
            } catch (InterruptedException e) {
                proc.destroyForcibly();
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while compiling " + p, e);
            }
            if (proc.exitValue() != 0) {
                throw failed(cc, env.containsKey("CC") && !env.get("CC").isBlank(), p, proc.exitValue(), out);
            }
            if (!Files.isExecutable(dir.resolve(p))) {
                throw new ProbeException(
                        "a working C compiler",
                        cc + " exited 0 on " + p + ".c but wrote no program",
                        "set CC to a C compiler (e.g. gcc)");
            }
        }
        Files.writeString(stamp, hash + "\n");
        return dir;
    }

    /** The most of a compiler's output a message quotes, characters. */
    private static final int QUOTED = 600;

    /**
     * @param cc the compiler's command
     * @param fromCc whether it came from $CC
     * @param probe the probe it was compiling
     * @param status its exit status
     * @param output what it printed (stdout and stderr)
     * @return what failed: the compiler, with its status and its output when there is any (on one line, the start
     *     of a long one); the kernel's headers are blamed only when the output names a header it could not find
     */
    static ProbeException failed(String cc, boolean fromCc, String probe, int status, String output) {
        String said = output.strip().replaceAll("\\s*\\R\\s*", " ");
        if (said.length() > QUOTED) {
            said = said.substring(0, QUOTED) + " ...";
        }
        String who = fromCc ? "CC=" + cc : cc;
        if (said.isEmpty()) {
            return new ProbeException(
                    "a working C compiler",
                    who + " exited with status " + status + " on " + probe + ".c and printed nothing",
                    fromCc ? "set CC to a C compiler (e.g. CC=gcc), or unset it to use cc from PATH" : "check " + cc);
        }
        boolean header = said.matches(".*\\.h: No such file or directory.*");
        return new ProbeException(
                header ? "the Linux headers" : "a working C compiler",
                who + " exited with status " + status + " on " + probe + ".c: " + said,
                header
                        ? "install linux-libc-dev (the kernel's user-space headers) and gcc"
                        : fromCc
                                ? "set CC to a C compiler (e.g. CC=gcc), or unset it to use cc from PATH"
                                : "check " + cc);
    }

    /** @return $CC, else the first cc / gcc / clang on PATH */
    static String compiler(java.util.Map<String, String> env) throws ProbeException {
        String cc = env.get("CC");
        if (cc != null && !cc.isBlank()) {
            return cc.trim();
        }
        String path = env.getOrDefault("PATH", "");
        for (String name : List.of("cc", "gcc", "clang")) {
            for (String d : path.split(":")) {
                if (!d.isEmpty() && Files.isExecutable(Path.of(d, name))) {
                    return Path.of(d, name).toString();
                }
            }
        }
        throw new ProbeException(
                "a C compiler",
                "no cc, gcc or clang on PATH (" + path + ")",
                "install gcc (e.g. apt-get install gcc), or set CC to a C compiler");
    }

    private static byte[] source(String name) throws IOException {
        try (InputStream in = ProbeBuilder.class.getResourceAsStream("/probes/" + name)) {
            if (in == null) {
                throw new IOException("probe source probes/" + name + " is not in the jar (rebuild netns-lab)");
            }
            return in.readAllBytes();
        }
    }
}
