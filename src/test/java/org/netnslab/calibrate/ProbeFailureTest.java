package org.netnslab.calibrate;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.nio.file.Path;
import java.util.Map;
import org.junit.BeforeClass;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.scalatestplus.junit.JUnitSuite;

/**
 * Each probe's failure path gives its one line (missing, what failed, what to do) and exit 2: no compiler, user
 * namespaces refused, the proc connector refused or absent, bad arguments, a wrong command line. The kernel refusals are simulated
 * (NETNS_LAB_PROBE_FAIL) so the test runs where everything works; the probes stop before touching the kernel.
 */
public class ProbeFailureTest extends JUnitSuite {
    @ClassRule
    public static final TemporaryFolder TMP = new TemporaryFolder();

    private static Path bin;

    @BeforeClass
    public static void buildProbes() throws Exception {
        bin = ProbeBuilder.build(TMP.getRoot().toPath().resolve("probes"));
    }

    @Test
    public void noCompilerOnPathSaysWhatToInstall() {
        ProbeException e = org.junit.Assert.assertThrows(
                ProbeException.class,
                () -> ProbeBuilder.build(TMP.getRoot().toPath().resolve("nocc"), Map.of("PATH", "/nonexistent")));
        assertEquals("a C compiler", e.missing);
        assertTrue(e.line(), e.line().contains("install gcc"));
    }

    /** A compiler that fails without a word ({@code CC=/bin/false}) is named with its status, not the headers. */
    @Test
    public void aSilentCompilerFailureSaysItsStatus() {
        ProbeException e = org.junit.Assert.assertThrows(
                ProbeException.class,
                () -> ProbeBuilder.build(TMP.getRoot().toPath().resolve("false"), Map.of("CC", "/bin/false")));
        assertEquals("a working C compiler", e.missing);
        assertEquals(
                "a working C compiler missing or refused: CC=/bin/false exited with status 1 on sched_probe.c and printed"
                        + " nothing; set CC to a C compiler (e.g. CC=gcc), or unset it to use cc from PATH",
                e.line());
    }

    /** A compiler's own words are quoted on one line; a header it cannot find names the kernel's headers. */
    @Test
    public void aCompilersOutputIsQuotedAndAMissingHeaderNamed() throws Exception {
        java.nio.file.Path cc = TMP.newFile("nohdr-cc").toPath();
        java.nio.file.Files.writeString(
                cc,
                "#!/bin/sh\necho 'probe.h:25:10: fatal error: linux/netlink.h: No such file or directory'\n"
                        + "echo 'compilation terminated.'\nexit 4\n");
        java.nio.file.Files.setPosixFilePermissions(
                cc, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
        ProbeException e = org.junit.Assert.assertThrows(
                ProbeException.class,
                () -> ProbeBuilder.build(TMP.getRoot().toPath().resolve("nohdr"), Map.of("CC", cc.toString())));
        assertEquals("the Linux headers", e.missing);
        assertEquals(
                "the Linux headers missing or refused: CC=" + cc
                        + " exited with status 4 on sched_probe.c: probe.h:25:10:"
                        + " fatal error: linux/netlink.h: No such file or directory compilation terminated.; install"
                        + " linux-libc-dev (the kernel's user-space headers) and gcc",
                e.line());
    }

    @Test
    public void userNamespacesRefusedNameTheSysctl() {
        ProbeException e = org.junit.Assert.assertThrows(
                ProbeException.class, () -> runner("userns").run("uevent_probe", "fit", "0", "10"));
        assertEquals("user namespaces", e.missing);
        assertTrue(
                e.line(),
                e.line().contains("user.max_user_namespaces") && e.line().contains("--only proc"));
        assertTrue(e.line(), e.getMessage().contains("Operation not permitted"));
    }

    @Test
    public void connectorRefusedSaysRunAsRootOrSkipIt() {
        ProbeException e = org.junit.Assert.assertThrows(
                ProbeException.class, () -> runner("connector").run("proc_probe", "fit", "10"));
        assertEquals("proc connector access", e.missing);
        assertTrue(e.line(), e.line().contains("--only uevent,lifecycle"));
    }

    @Test
    public void noProcEventsNamesTheKernelOption() {
        ProbeException e = org.junit.Assert.assertThrows(
                ProbeException.class, () -> runner("proc-events").run("proc_probe", "fit", "10"));
        assertTrue(e.missing, e.missing.contains("CONFIG_PROC_EVENTS"));
    }

    @Test
    public void netnsRefusedInTheLoopNamesNetworkNamespaces() {
        ProbeException e = org.junit.Assert.assertThrows(
                ProbeException.class, () -> runner("userns").run("netns_probe", "serial", "1"));
        assertEquals("network namespaces", e.missing);
    }

    @Test
    public void aBadCountIsRefusedWithItsRange() {
        ProbeException e = org.junit.Assert.assertThrows(
                ProbeException.class, () -> runner("none").run("uevent_probe", "tc1", "0", "10"));
        assertEquals("arguments", e.missing);
        assertTrue(e.getMessage(), e.getMessage().contains("N must be an integer in 1..10000, got '0'"));
    }

    @Test
    public void aProbePastItsTimeoutIsStoppedAndSaysToRaiseIt() {
        java.io.IOException e = org.junit.Assert.assertThrows(
                java.io.IOException.class, () -> new ProbeRunner(bin, 1).run("sched_probe", "ctxsw", "10000000"));
        assertTrue(
                e.getMessage(),
                e.getMessage().contains("no result after 1 s") && e.getMessage().contains("raise --timeout"));
    }

    @Test
    public void aWrongCommandLineSaysWhatIsWrongBeforeTheUsage() throws Exception {
        assertEquals(
                "proc_probe: 'scan' takes LIVE SCANS [fit], got 1 argument\n"
                        + "usage: proc_probe fit PROCS | listeners PROCS | pidfd PROCS | scan LIVE SCANS [fit]\n",
                usage("proc_probe", "scan", "5"));
        assertEquals(
                "netns_probe: unknown mode 'serail' (serial, parallel, clean)\n"
                        + "usage: netns_probe serial ITER | parallel LOOPS ITER | clean\n",
                usage("netns_probe", "serail", "3"));
        assertTrue(
                usage("uevent_probe"),
                usage("uevent_probe").startsWith("uevent_probe: no mode given\nusage: uevent_probe fit "));
        assertTrue(
                usage("sched_probe", "ctxsw"),
                usage("sched_probe", "ctxsw").startsWith("sched_probe: 'ctxsw' takes ROUNDS, got 0 arguments\n"));
        assertTrue(usage("uevent_probe", "pair", "x", "100")
                .startsWith("uevent_probe: 'pair' takes '-' before SENDS, got 'x'\n"));
        assertTrue(usage("uevent_probe", "remote", "x", "100")
                .startsWith("uevent_probe: 'remote' takes '-' before SENDS, got 'x'\n"));
        // --help is no mistake: the usage on stdout, exit 0
        Process p = new ProcessBuilder(bin.resolve("netns_probe").toString(), "--help").start();
        assertEquals(
                "usage: netns_probe serial ITER | parallel LOOPS ITER | clean\n",
                new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8));
        assertEquals(0, p.waitFor());
    }

    /** @return what the probe printed, after checking it exited 2 (it stops before touching the kernel) */
    private static String usage(String probe, String... args) throws Exception {
        java.util.List<String> cmd =
                new java.util.ArrayList<>(java.util.List.of(bin.resolve(probe).toString()));
        cmd.addAll(java.util.List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertEquals(out, 2, p.waitFor());
        return out;
    }

    private static ProbeRunner runner(String fail) {
        return new ProbeRunner(bin, 30, Map.of("NETNS_LAB_PROBE_FAIL", fail));
    }
}
