package org.netnslab.jmh;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.netnslab.machine.Clock;
import org.netnslab.netns.NetnsHandle;
import org.netnslab.uevent.InjectResult;
import org.netnslab.userns.Credentials;
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
 * One TC1 transaction, live: a root task of a child user namespace injects a uevent into a netns
 * that namespace owns (uevent_net_rcv_skb: CAP_SYS_ADMIN check, SEQNUM taken and appended, broadcast
 * to the netns's listeners, none here) and waits for the result, by the route the design gives
 * injections ({@link NetnsHandle#injectRoute()}):
 * <ul>
 *   <li>{@code kernel-4.18}: through the one global owner actor (uevent_sock_mutex, global SEQNUM);</li>
 *   <li>{@code per-netns-2018}: through the netns's own actor (the 2018 per-netns lock and SEQNUM);</li>
 *   <li>{@code kernel-6.9}: on the sender's own thread, no lock, atomic global SEQNUM.</li>
 * </ul>
 * The result comes back by the direct route ({@link LiveModel#ask}). Units: us per transaction, one
 * sender (no contention: this is the route's own cost, thread hand-offs included, not a throughput
 * under load).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(value = 1, jvmArgsAppend = "-Xmx1g")
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 1)
public class NetnsTransactionBenchmark {
    /** The design, hence the route: global owner, per-netns actor, lockless. */
    @Param({"kernel-4.18", "per-netns-2018", "kernel-6.9"})
    public String design;

    static final byte[] PAYLOAD = "add@/devices/virtual/net/veth0\0ACTION=add\0".getBytes(StandardCharsets.US_ASCII);

    private LiveModel model;
    private NetnsHandle netns;
    private Credentials sender;
    private long lastSeqnum;

    /**
     * Starts the model and creates the netns owned by a child user namespace (unshare -U by uid 1000).
     *
     * @throws Exception when the netns cannot be created
     */
    @Setup(Level.Trial)
    public void setUp() throws Exception {
        model = new LiveModel(design);
        UserNamespace userns = UserNamespace.INIT.createChild(1, 1000);
        netns = model.create(userns);
        sender = Credentials.root(userns, 1000);
    }

    /**
     * Releases the netns, checks it was dismantled and that SEQNUMs grew, and stops the model.
     *
     * @throws Exception when the model does not answer
     */
    @TearDown(Level.Trial)
    public void tearDown() throws Exception {
        try {
            model.release(netns.id());
            int live = model.live();
            if (live != 0 || lastSeqnum < 1) {
                throw new IllegalStateException(
                        design + ": after the run " + live + " netns live (expected 0), last SEQNUM " + lastSeqnum);
            }
        } finally {
            model.close();
        }
    }

    /**
     * @return the SEQNUM the injected uevent carried (us per transaction)
     * @throws Exception when the model refuses the injection or does not answer
     */
    @Benchmark
    public long inject() throws Exception {
        InjectResult r = model.ask(replyTo -> netns.injectRoute().inject(sender, PAYLOAD, Clock.nanoTime(), replyTo));
        if (r instanceof InjectResult.Sent s) {
            lastSeqnum = s.seqnum();
            return lastSeqnum;
        }
        throw new IllegalStateException(design + ": injection refused: " + r);
    }
}
