package org.netnslab.cli;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import akka.actor.testkit.typed.javadsl.LogCapturing;
import java.io.File;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.After;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.scalatestplus.junit.JUnitSuite;

/**
 * What a newcomer hit with a cluster: a coordinator's port in use, port 0 or a host that does not resolve is one
 * line and exit 2, with nothing left beside {@code --out}; a worker without {@code --once} serves coordinator after
 * coordinator at one address; a {@code worker --once} that cannot load the run, or is refused for its inputs, exits
 * 2; a worker stopped with SIGTERM leaves the cluster, and neither that nor a normal run shows a warning of Akka's.
 */
public class ClusterFaultsTest extends JUnitSuite {
    @Rule
    public final LogCapturing logCapturing = new LogCapturing();

    @Rule
    public final TemporaryFolder tmp = new TemporaryFolder();

    private final List<Process> workers = new ArrayList<>();

    @After
    public void stopWorkers() {
        workers.forEach(Process::destroyForcibly);
    }

    private CommandLineFaultsTest.Printed run(String out, String... extra) {
        List<String> args = new ArrayList<>(List.of(ClusterTest.SWEEP));
        args.addAll(List.of("--out", tmp.getRoot().toPath().resolve(out).toString(), "--jobs", "1"));
        args.addAll(List.of(extra));
        return CommandLineFaultsTest.cli(args.toArray(String[]::new));
    }

    /** A --config file that waits {@code wait} for workers. */
    private String waiting(String wait) throws Exception {
        Path conf = tmp.newFile().toPath();
        Files.writeString(conf, "netns-lab.cluster.wait-for-workers = " + wait + "\n");
        return conf.toString();
    }

    private Process worker(Path dir, int port, StringBuilder err, String marker, CountDownLatch seen, String... args)
            throws Exception {
        Process p = ClusterTest.workerJvm(dir, port, err, marker, seen, List.of(args));
        workers.add(p);
        return p;
    }

    private static String text(StringBuilder b) {
        synchronized (b) {
            return b.toString();
        }
    }

    private static void assertOneLine(String expected, CommandLineFaultsTest.Printed p) {
        assertEquals(p.err(), Main.EXIT_CONFIG, p.status());
        assertEquals(expected + "\n", p.err());
    }

    /** Nothing is left beside {@code --out}: no results folder, no temporary one. */
    private void assertNothingBeside(String out) {
        String[] left = tmp.getRoot().list((d, n) -> n.equals(out) || n.startsWith("." + out + ".tmp-"));
        assertEquals("nothing beside --out: " + Arrays.toString(left), 0, left.length);
    }

    @Test
    public void aPortInUseIsOneLineAndLeavesNothing() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            int port = taken.getLocalPort();
            assertOneLine(
                    "netns-lab: --cluster 127.0.0.1:" + port + ": port " + port + " is already in use on 127.0.0.1"
                            + " (another coordinator or program listens there); choose a free port or stop that"
                            + " program",
                    run("in-use", "--cluster", "127.0.0.1:" + port));
            assertNothingBeside("in-use");
            assertOneLine(
                    "netns-lab: worker: --bind 127.0.0.1:" + port + ": port " + port + " is already in use on"
                            + " 127.0.0.1 (another coordinator or program listens there); choose a free port or stop"
                            + " that program",
                    CommandLineFaultsTest.cli("worker", "--join", "127.0.0.1:2552", "--bind", "127.0.0.1:" + port));
        }
    }

    /** With no worker, the coordinator runs the designs itself and says how a worker's --join must read. */
    @Test
    public void aCoordinatorNoWorkerJoinedSaysHowToSpellTheAddress() throws Exception {
        int port;
        try (ServerSocket free = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            port = free.getLocalPort();
        }
        CommandLineFaultsTest.Printed p = run("alone", "--cluster", "127.0.0.1:" + port, "--config", waiting("1s"));
        assertEquals(p.err(), 0, p.status());
        assertTrue(
                p.err(),
                p.err()
                        .contains("netns-lab: cluster: no worker joined within the wait"
                                + " (netns-lab.cluster.wait-for-workers; a worker --joins the address exactly as --cluster"
                                + " spells it: 127.0.0.1 and localhost differ; and both or neither use TLS,"
                                + " akka.remote.artery.transport = tls-tcp): running the "));
    }

    /** A worker stopped while it waits for a run says that no run was in progress, and exits 143. */
    @Test
    public void aWorkerStoppedWhileWaitingSaysNoRunWasInProgress() throws Exception {
        int port;
        try (ServerSocket free = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            port = free.getLocalPort();
        }
        StringBuilder err = new StringBuilder();
        CountDownLatch waiting = new CountDownLatch(1);
        Process w = worker(null, port, err, "waiting for the coordinator", waiting);
        assertTrue(text(err), waiting.await(60, java.util.concurrent.TimeUnit.SECONDS));
        w.toHandle().destroy(); // SIGTERM, leaving its stderr open to read (Process.destroy closes it)
        assertTrue(w.waitFor(60, java.util.concurrent.TimeUnit.SECONDS));
        assertEquals(text(err), 143, w.exitValue());
        assertTrue(
                text(err),
                text(err)
                        .contains("while no run was in progress (none started yet, or between a"
                                + " worker's runs); nothing written"));
    }

    @Test
    public void portZeroIsRefused() throws Exception {
        // without the check, a coordinator at port 0 would wait for workers no one can send to it (here 2 s)
        assertOneLine(
                "netns-lab: --cluster 127.0.0.1:0: port 0 means any free port, which no worker could be told to join;"
                        + " give the coordinator a fixed port, e.g. 127.0.0.1:2552",
                run("port-0", "--cluster", "127.0.0.1:0", "--config", waiting("2s")));
        assertNothingBeside("port-0");
    }

    /** An empty --cluster is refused as an empty --out is, not taken for no cluster; an address names its option. */
    @Test
    public void anEmptyOrNonLoopbackClusterAddressIsRefusedNamingTheOption() throws Exception {
        assertOneLine(
                "netns-lab: --cluster: empty address; give the HOST:PORT to coordinate at, e.g. 127.0.0.1:2552",
                run("empty", "--cluster", ""));
        assertNothingBeside("empty");
        CommandLineFaultsTest.Printed far = run("far", "--cluster", "8.8.8.8:25530");
        assertEquals(far.err(), Main.EXIT_CONFIG, far.status());
        assertTrue(
                far.err(),
                far.err()
                        .startsWith("netns-lab: --cluster 8.8.8.8:25530: not a loopback address: a cluster beyond this"
                                + " host needs Artery's TLS transport"));
        assertNothingBeside("far");
        CommandLineFaultsTest.Printed join = CommandLineFaultsTest.cli("worker", "--join", "8.8.8.8:25530");
        assertEquals(join.err(), Main.EXIT_CONFIG, join.status());
        assertTrue(join.err(), join.err().startsWith("netns-lab: worker: --join 8.8.8.8:25530: not a loopback"));
    }

    /** A worker bound at the address it joins would join itself and wait for ever, whatever its --wait. */
    @Test
    public void aWorkerBoundAtItsJoinAddressIsRefused() throws Exception {
        assertOneLine(
                "netns-lab: worker: --bind localhost:2998 is the --join address: a worker listens at an address of its"
                        + " own and joins the coordinator's (run X.conf --cluster 127.0.0.1:2998)",
                CommandLineFaultsTest.cli(
                        "worker", "--join", "127.0.0.1:2998", "--bind", "localhost:2998", "--once", "--wait", "2s"));
    }

    @Test
    public void aHostThatDoesNotResolveIsSaidSo() throws Exception {
        assertOneLine(
                "netns-lab: --cluster no.such.host.invalid:25530: cannot resolve the host 'no.such.host.invalid' (no"
                        + " such name in DNS or /etc/hosts); give an IP address or a name this host resolves",
                run("unresolved", "--cluster", "no.such.host.invalid:25530"));
        assertNothingBeside("unresolved");
        assertOneLine(
                "netns-lab: worker: --join no.such.host.invalid:25530: cannot resolve the host"
                        + " 'no.such.host.invalid' (no such name in DNS or /etc/hosts); give an IP address or a name"
                        + " this host resolves",
                CommandLineFaultsTest.cli("worker", "--join", "no.such.host.invalid:25530"));
    }

    /**
     * A {@code worker --once} that joins after the coordinator began running its design runs itself is given none:
     * when that coordinator ends, the worker says so and exits 1, instead of waiting for a next coordinator for ever.
     */
    @Test
    public void aWorkerOnceTheCoordinatorDidNotNeedExitsOne() throws Exception {
        int port = ClusterTest.freePort();
        Process coordinator = coordinatorJvm(port, "late", "1s");
        StringBuilder coordinatorSaid = new StringBuilder();
        CountDownLatch alone = new CountDownLatch(1);
        Thread reader =
                new Thread(() -> ChildStderr.copy(coordinator.getErrorStream(), coordinatorSaid, "left here", alone));
        reader.setDaemon(true);
        reader.start();
        assertTrue(text(coordinatorSaid), alone.await(120, TimeUnit.SECONDS));
        StringBuilder err = new StringBuilder();
        CountDownLatch joined = new CountDownLatch(1);
        Process w = worker(null, port, err, "joined the cluster", joined, "--once");
        assertTrue(text(err), w.waitFor(180, TimeUnit.SECONDS));
        assertEquals(text(err) + text(coordinatorSaid), 1, w.exitValue());
        assertTrue(
                text(err),
                text(err)
                        .contains(": the coordinator at 127.0.0.1:" + port + " ended without a design run for this"
                                + " worker (it needed none); --once ends here"));
        assertTrue(coordinator.waitFor(60, TimeUnit.SECONDS));
        assertEquals(text(coordinatorSaid), 0, coordinator.exitValue());
    }

    /**
     * A coordinator stopped (SIGTERM) while a worker runs its design runs starts none of them itself, and its one line
     * says that they ran on the workers, not that no design had started.
     */
    @Test
    public void aCoordinatorStoppedWhileItsWorkersRunStartsNoneItself() throws Exception {
        int port = ClusterTest.freePort();
        StringBuilder err = new StringBuilder();
        CountDownLatch up = new CountDownLatch(1);
        worker(null, port, err, "waiting for the coordinator", up);
        assertTrue(text(err), up.await(120, TimeUnit.SECONDS));
        Process coordinator = coordinatorJvm(port, "stopped", "60s");
        String said = ChildStderr.signalledAt(coordinator, "done on worker", "TERM");
        assertEquals(said, 143, coordinator.exitValue());
        String after = said.substring(said.indexOf("done on worker"));
        assertFalse(said, after.contains("design runs, "));
        assertFalse(said, after.contains("run failed"));
        assertTrue(
                said,
                said.contains(
                        "netns-lab: interrupted (SIGTERM) in scenario uevent-tc1-userns, while the coordinator handed its"
                                + " design runs to the cluster's workers (the lines above say which joined and which runs"
                                + " were done); no results written"));
    }

    /** A coordinator JVM of TC1 at --scale 0.3 that waits {@code wait} for workers at {@code port}. */
    private Process coordinatorJvm(int port, String out, String wait) throws Exception {
        List<String> cmd = ClusterTest.command(
                "run",
                "load-tests/uevent-tc1-userns.conf",
                "--scale",
                "0.3",
                "--jobs",
                "1",
                "--no-progress",
                "--out",
                tmp.getRoot().toPath().resolve(out).toString(),
                "--cluster",
                "127.0.0.1:" + port,
                "--config",
                waiting(wait));
        Process coordinator = new ProcessBuilder(cmd)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
        workers.add(coordinator);
        return coordinator;
    }

    /**
     * One worker without {@code --once}, two coordinators one after the other at the same address: the worker
     * serves both (it leaves each coordinator's cluster with it and joins the next), and neither console shows a
     * warning of Akka's.
     */
    @Test
    public void aWorkerServesTheNextCoordinatorAtTheSameAddress() throws Exception {
        int port = ClusterTest.freePort();
        String wait = waiting("60s");
        StringBuilder err = new StringBuilder();
        CountDownLatch up = new CountDownLatch(1);
        Process w = worker(null, port, err, "waiting for the coordinator", up);
        assertTrue("the worker started", up.await(120, TimeUnit.SECONDS));
        List<CommandLineFaultsTest.Printed> runs = new ArrayList<>();
        for (String out : List.of("first", "second")) {
            try (AkkaWarnings warned = new AkkaWarnings()) {
                runs.add(run(out, "--cluster", "127.0.0.1:" + port, "--config", wait));
                assertEquals(out + ": " + text(err), List.of(), warned.lines());
            }
        }
        for (CommandLineFaultsTest.Printed p : runs) {
            assertEquals(p.err(), 0, p.status());
            assertTrue(p.err() + text(err), p.err().contains("done on worker 127.0.0.1:"));
            assertTrue(p.err(), p.err().contains(" (6/6)"));
            assertFalse(p.err(), p.err().contains("left here"));
        }
        VirtualRunTest.assertSame(
                "",
                VirtualRunTest.withoutWallClock(tmp.getRoot().toPath().resolve("first")),
                VirtualRunTest.withoutWallClock(tmp.getRoot().toPath().resolve("second")));
        assertTrue("the worker serves on", w.isAlive());
        String said = text(err);
        assertFalse(
                said,
                Pattern.compile(" WARN (?!.*Couldn't join seed nodes)")
                        .matcher(said)
                        .find());
    }

    /**
     * Two {@code worker --once}: one where the scenario file is missing, one whose copy of it differs from the
     * coordinator's. Both exit 2; the coordinator says why of each and runs the design runs itself.
     */
    @Test
    public void aWorkerOnceThatCannotLoadTheRunOrIsRefusedExitsTwo() throws Exception {
        int port = ClusterTest.freePort();
        Path empty = tmp.newFolder("empty").toPath();
        Path other = tmp.newFolder("other").toPath();
        Files.createDirectories(other.resolve("load-tests"));
        Files.writeString(
                other.resolve("load-tests/unshare-loop.conf"),
                Files.readString(Path.of("load-tests/unshare-loop.conf")) + "\n# another copy\n");
        StringBuilder missingSaid = new StringBuilder();
        StringBuilder otherSaid = new StringBuilder();
        CountDownLatch up = new CountDownLatch(2);
        Process missing = worker(empty, port, missingSaid, "waiting for the coordinator", up, "--once");
        Process refused = worker(other, port, otherSaid, "waiting for the coordinator", up, "--once");
        assertTrue("the workers started", up.await(120, TimeUnit.SECONDS));
        CommandLineFaultsTest.Printed p = run("alone", "--cluster", "127.0.0.1:" + port, "--config", waiting("30s"));
        assertEquals(p.err(), 0, p.status());
        assertTrue(
                p.err(),
                p.err()
                        .contains(
                                "cannot take the run: this worker has no scenario file load-tests/unshare-loop.conf (a"
                                        + " relative path is read from the worker's working folder, "
                                        + empty.toRealPath()
                                        + ")"));
        assertTrue(
                p.err(),
                p.err()
                        .contains(
                                "refused: the worker read other inputs than the coordinator: the scenario file (or a file"
                                        + " it includes, or an environment variable it reads) (fingerprints: worker "));
        assertTrue(p.err(), p.err().contains("netns-lab: cluster: 2 workers joined and were refused (127.0.0.1:"));
        assertTrue(
                p.err(),
                p.err().contains("), and no other within the wait (netns-lab.cluster.wait-for-workers): running the"));
        assertTrue(missing.waitFor(60, TimeUnit.SECONDS));
        assertTrue(refused.waitFor(60, TimeUnit.SECONDS));
        assertEquals(text(missingSaid), Main.EXIT_CONFIG, missing.exitValue());
        assertEquals(text(otherSaid), Main.EXIT_CONFIG, refused.exitValue());
    }

    /**
     * A {@code worker --once} gets SIGTERM while it runs a design run: it leaves the cluster and exits 143, the
     * coordinator runs what is left itself, and its console shows no warning of Akka's (no unreachable node, no
     * quarantine).
     */
    @Test
    public void aWorkerStoppedWithSigtermLeavesTheClusterQuietly() throws Exception {
        int port = ClusterTest.freePort();
        StringBuilder err = new StringBuilder();
        CountDownLatch running = new CountDownLatch(1);
        Process w = worker(null, port, err, ": running ", running, "--once");
        Thread stopper = new Thread(() -> {
            try {
                if (running.await(120, TimeUnit.SECONDS)) {
                    w.toHandle().destroy(); // SIGTERM, leaving its stderr open to read (Process.destroy closes it)
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        stopper.start();
        CommandLineFaultsTest.Printed p;
        List<String> warned;
        try (AkkaWarnings warnings = new AkkaWarnings()) {
            // 18 design runs: the signal comes while there are runs left
            p = run("stopped", "--cluster", "127.0.0.1:" + port, "--config", waiting("60s"), "--repeat", "3");
            warned = warnings.lines();
        }
        stopper.join();
        assertEquals(p.err(), 0, p.status());
        assertTrue(
                p.err(),
                Pattern.compile("the last worker left: running the \\d+ design runs left here")
                        .matcher(p.err())
                        .find());
        assertEquals(text(err), List.of(), warned);
        assertTrue(w.waitFor(30, TimeUnit.SECONDS));
        assertEquals(Stops.EXIT_SIGTERM, w.exitValue());
        assertTrue(new File(tmp.getRoot(), "stopped/result.json").isFile());
    }
}
