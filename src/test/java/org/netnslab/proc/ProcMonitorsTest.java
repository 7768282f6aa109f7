package org.netnslab.proc;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.Test;
import org.scalatestplus.junit.JUnitSuite;

public class ProcMonitorsTest extends JUnitSuite {
    private static final List<ProcEvent> TEN = ProcessTable.shortLived(10, 0.2);

    private static long count(List<ProcEvent> events, int what) {
        return events.stream().filter(e -> e.what() == what).count();
    }

    @Test
    public void aSerialSpawnersProcessesExitBeforeTheNextForks() {
        List<String> got = ProcessTable.shortLived(3, 0, 0).stream()
                .map(e -> ProcEvents.name(e.what()) + " " + (e.pid() - ProcessTable.FIRST_PID))
                .toList();
        assertEquals(
                List.of("FORK 0", "EXEC 0", "EXIT 0", "FORK 1", "EXEC 1", "EXIT 1", "FORK 2", "EXEC 2", "EXIT 2"), got);
        assertEquals(
                "a wave of 1: each exits once the next has forked",
                List.of("FORK 0", "EXEC 0", "FORK 1", "EXEC 1", "EXIT 0", "FORK 2", "EXEC 2", "EXIT 1", "EXIT 2"),
                ProcessTable.shortLived(3, 0, 1).stream()
                        .map(e -> ProcEvents.name(e.what()) + " " + (e.pid() - ProcessTable.FIRST_PID))
                        .toList());
    }

    @Test
    public void theProcessTableForksExecsAndExitsEachProcessOnceAfterTheWave() {
        assertEquals(30, TEN.size());
        assertEquals(10, count(TEN, ProcEvents.FORK));
        assertEquals(10, count(TEN, ProcEvents.EXEC));
        assertEquals(10, count(TEN, ProcEvents.EXIT));
        assertEquals(
                "fewer processes than a wave: every exit comes after every fork",
                ProcEvents.EXIT,
                TEN.get(20).what());
        assertEquals(
                List.of(1 << 8, 9),
                TEN.stream()
                        .filter(ProcEvent::isNonzeroExit)
                        .map(ProcEvent::exitCode)
                        .toList());
        assertEquals(
                ProcessTable.FIRST_PID + 4,
                TEN.stream().filter(ProcEvent::isNonzeroExit).findFirst().get().pid());
    }

    @Test
    public void pidfdReapsEveryExitWithItsStatusAndIsChargedFiveCallsPerProcess() {
        PidfdMonitor m = new PidfdMonitor(new SyscallCost(1_000_000));
        TEN.stream().filter(PidfdMonitor::sees).forEach(m::onEvent);
        assertEquals(10, m.exitsDetected());
        assertEquals(2, m.abnormalExits());
        assertTrue(
                "pidfd_open, epoll_ctl, epoll_wait, waitid, close: 50 ms charged, got " + m.busyNanos(),
                m.busyNanos() >= 50_000_000);
    }

    @Test
    public void aProcScanSeesOnlyTheExitsOfProcessesAnEarlierScanSaw() {
        ProcScanMonitor scanner = new ProcScanMonitor(100, new SyscallCost(0));
        TEN.subList(0, 20).forEach(scanner::apply);
        scanner.scan();
        TEN.subList(20, 30).forEach(scanner::apply);
        scanner.scan();
        assertEquals(10, scanner.exitsDetected());

        ProcScanMonitor late = new ProcScanMonitor(100, new SyscallCost(0));
        late.scan();
        TEN.forEach(late::apply);
        late.scan();
        assertEquals("born and gone between two scans: never seen", 0, late.exitsDetected());

        // with 100,000 long-lived processes (proc-scan-100k) the short-lived ones' pids, from 100,000, are still
        // theirs alone: one born and gone between two scans takes no long-lived entry with it
        ProcScanMonitor many = new ProcScanMonitor(100_000, new SyscallCost(0));
        many.scan();
        TEN.forEach(many::apply);
        many.scan();
        assertEquals("born and gone between two scans, among 100,000", 0, many.exitsDetected());
    }

    @Test
    public void aConnectorMonitorHandlesWhatItWantsDiscardsTheRestAndCountsDrops() {
        List<Long> latencies = new ArrayList<>();
        ConnectorMonitor m = new ConnectorMonitor(ProcEvents.EXIT, new SyscallCost(0), latencies::add);
        m.onReceive(new ProcReceived.Event(new ProcEvent(ProcEvents.NONE, 0, 0, System.nanoTime(), 0, 0, 0, 0, 0)));
        TEN.subList(19, 21).forEach(e -> m.onReceive(new ProcReceived.Event(e))); // the last exec, the first exit
        m.onReceive(new ProcReceived.Enobufs(3));
        assertEquals(1, m.handled());
        assertEquals(1, m.discarded());
        assertEquals(1, m.enobufs());
        assertEquals(3, m.dropped());
        assertEquals("the ack is not an event: no latency", 2, latencies.size());
        assertTrue(m.wants(TEN.get(20)));
        assertTrue(!m.wants(TEN.get(19)));
    }
}
