package org.netnslab.jmh;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.netnslab.uevent.UeventException;
import org.netnslab.uevent.UeventMessage;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The uevent wire codec ({@link UeventMessage}, lib/kobject_uevent.c's {@code ACTION@DEVPATH} NUL
 * {@code KEY=VALUE} NUL ... format) on a typical net device event: {@code add@/devices/virtual/net/veth0}
 * with ACTION, DEVPATH, SUBSYSTEM, INTERFACE, IFINDEX and SEQNUM (133 bytes on the wire).
 *
 * <p>Units: ns per call, one thread. What each stands for in the kernel: {@link #encode} and
 * {@link #appendSeqnum} the building of the skb (kobject_uevent_env's add_uevent_var, and
 * uevent_net_rcv_skb appending {@code SEQNUM=n}); {@link #decode} and {@link #seqnumOf} a listener's
 * parsing of what recvmsg returned (udev's full parse, or reading only the SEQNUM).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = "-Xmx512m")
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 5, time = 1)
public class UeventCodecBenchmark {
    private UeventMessage message;
    private byte[] wire;
    private byte[] payload;
    private long seqnum = 1_000_000;

    /** Builds the message, its wire form, and the same payload without its SEQNUM key. */
    @Setup
    public void setUp() {
        Map<String, String> keys = new LinkedHashMap<>();
        keys.put("ACTION", "add");
        keys.put("DEVPATH", "/devices/virtual/net/veth0");
        keys.put("SUBSYSTEM", "net");
        keys.put("INTERFACE", "veth0");
        keys.put("IFINDEX", "42");
        keys.put("SEQNUM", "1234567");
        message = new UeventMessage("add@/devices/virtual/net/veth0", keys);
        wire = message.encode();
        keys.remove("SEQNUM");
        payload = new UeventMessage(message.header(), keys).encode();
        if (wire.length != 133) {
            throw new IllegalStateException(
                    "uevent codec: the wire form is " + wire.length + " bytes, the Javadoc says 133");
        }
        if (!UeventMessage.decode(wire).equals(message)) {
            throw new IllegalStateException("uevent codec: decode(encode(m)) != m for " + message);
        }
    }

    /** @return the wire form of a six-key uevent (ns per call) */
    @Benchmark
    public byte[] encode() {
        return message.encode();
    }

    /** @return the message parsed from its 133-byte wire form (ns per call) */
    @Benchmark
    public UeventMessage decode() {
        return UeventMessage.decode(wire);
    }

    /** @return the SEQNUM read from the last key only, as a listener that checks ordering does (ns per call) */
    @Benchmark
    public long seqnumOf() {
        return UeventMessage.seqnumOf(wire);
    }

    /**
     * @return the injected payload with {@code SEQNUM=n} appended after the size check, as
     *     uevent_net_rcv_skb does (ns per call; n grows by one per call)
     * @throws UeventException never: the payload fits
     */
    @Benchmark
    public byte[] appendSeqnum() throws UeventException {
        return UeventMessage.appendSeqnum(payload, seqnum++);
    }
}
