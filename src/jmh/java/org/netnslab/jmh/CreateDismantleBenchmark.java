package org.netnslab.jmh;

import java.util.concurrent.TimeUnit;
import org.netnslab.netns.NetnsHandle;
import org.netnslab.userns.UserNamespace;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One netns life through the supervisor, live, one at a time: copy_net_ns (net_alloc, the
 * lifecycle lock, setup_net running the standard pernet inits: uevent socket, sock_inuse alloc_percpu,
 * kernel sockets) then put_net of the last reference and cleanup_net (the cleanup batch of one:
 * pre_exit, synchronize_rcu, exits, rcu_barrier, net_free), waiting for net_free before the next
 * cycle. The lifecycle lock is net_mutex in {@code net-free-4.16} and pernet_ops_rwsem in
 * {@code net-free-rwsem}; both free sock_inuse in net_free. No simulated costs: grace periods are 0
 * (one message round through the RCU actor), setup and exit costs 0.
 *
 * <p>Units: us per create + dismantle cycle, one caller, by the direct route ({@link LiveModel#ask}).
 * The reciprocal is a single caller's cycle rate, not the model's throughput under many workers.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(value = 1, jvmArgsAppend = "-Xmx1g")
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 1)
public class CreateDismantleBenchmark {
    /** The design: net_mutex or pernet_ops_rwsem as the lifecycle lock. */
    @Param({"net-free-4.16", "net-free-rwsem"})
    public String design;

    private LiveModel model;
    private long cycles;

    /** Starts the model. */
    @Setup(Level.Trial)
    public void setUp() {
        model = new LiveModel(design);
    }

    /**
     * Checks that every cycle freed its netns and stops the model.
     *
     * @throws Exception when the model does not answer
     */
    @TearDown(Level.Trial)
    public void tearDown() throws Exception {
        try {
            int live = model.live();
            if (live != 0 || cycles == 0) {
                throw new IllegalStateException(
                        design + ": " + live + " netns live after " + cycles + " cycles (expected 0)");
            }
        } finally {
            model.close();
        }
    }

    /**
     * @return the id of the netns created and freed (us per cycle)
     * @throws Exception when setup_net fails or the model does not answer
     */
    @Benchmark
    public long createAndDismantle() throws Exception {
        NetnsHandle netns = model.create(UserNamespace.INIT);
        model.release(netns.id());
        cycles++;
        return netns.id();
    }
}
