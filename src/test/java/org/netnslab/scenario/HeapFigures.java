package org.netnslab.scenario;

import akka.actor.typed.ActorSystem;
import akka.actor.typed.javadsl.Behaviors;
import com.typesafe.config.ConfigFactory;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.netnslab.machine.Machine;
import org.netnslab.machine.VirtualSystem;
import org.netnslab.run.RunObserver;
import org.netnslab.run.RunSettings;

/**
 * The measuring harness behind {@link HeapEstimate}'s figures (not a test: run by hand, see docs/scale-and-heap.md):
 * runs real scenarios of growing populations in virtual execution and reads the heap used after a full GC
 * (MemoryMXBean) at the end of the warm-up phase, when every netns, listener and injector is alive. The
 * differences between populations give bytes per netns, per listener, per injector and per churn worker.
 *
 * <p>Usage: {@code java -cp ... org.netnslab.scenario.HeapFigures}
 */
public final class HeapFigures {
    private HeapFigures() {}

    public static void main(String[] args) throws Exception {
        System.out.println("baseline  " + used());
        // netns x listeners-per-netns x injectors
        long[][] injection = {{2000, 0, 1}, {8000, 0, 1}, {8000, 1, 1}, {8000, 4, 1}, {2000, 0, 8000}};
        for (long[] p : injection) {
            String text = String.join(
                    "\n",
                    "name = heap",
                    "description = heap",
                    "seed = heap",
                    "workload {",
                    "  type = uevent-injection",
                    "  netns { userns-owned = " + p[0] / 2 + ", init-owned = " + (p[0] - p[0] / 2) + " }",
                    "  listeners-per-netns = " + p[1],
                    "  injections-per-netns = 1",
                    "  warmup-per-netns = 1",
                    "  injectors = " + p[2],
                    "  injector-start-interval = 0ms",
                    "}",
                    "execution = virtual",
                    "designs = [kernel-6.9]",
                    "");
            System.out.println("injection netns=" + p[0] + " listeners/netns=" + p[1] + " injectors=" + p[2] + " heap="
                    + measure(text, "warm-up"));
        }
        for (long workers : new long[] {100, 2000}) {
            String text = String.join(
                    "\n",
                    "name = heap",
                    "description = heap",
                    "seed = heap",
                    "workload {",
                    "  type = netns-churn",
                    "  workers = " + workers,
                    "  iterations = 2",
                    "  warmup-iterations = 1",
                    "}",
                    "execution = virtual",
                    "designs = [net-free-rwsem]",
                    "");
            System.out.println("churn workers=" + workers + " heap=" + measure(text, "warm-up"));
        }
        System.exit(0);
    }

    private static long used() {
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    private static long measure(String text, String phase) throws Exception {
        Path f = java.nio.file.Files.createTempFile("heap", ".conf");
        java.nio.file.Files.writeString(f, text);
        Scenario s = new ScenarioLoader().load(f, List.of(), 1);
        ActorSystem<Void> system = VirtualSystem.create(Behaviors.empty(), "heap", ConfigFactory.load());
        List<Long> at = new ArrayList<>();
        RunObserver o = new RunObserver() {
            @Override
            public void progress(String design, String p, long done, long total, long elapsedNanos) {}

            @Override
            public void phaseDone(String design, String p, long total, long elapsedNanos) {
                if (p.startsWith(phase)) {
                    at.add(used());
                }
            }
        };
        new ScenarioRunner(
                        system,
                        new RunSettings(Duration.ofSeconds(60), Duration.ofSeconds(60), Duration.ofSeconds(1)),
                        o)
                .run(s);
        VirtualSystem.terminate(system, Duration.ofSeconds(5));
        Machine.get(system).engine().unregister();
        return at.isEmpty() ? -1 : at.get(0);
    }
}
