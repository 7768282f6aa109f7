package org.netnslab.cluster;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.netnslab.metrics.DesignResult;
import org.netnslab.metrics.Invariants;
import org.netnslab.metrics.LatencyRecorder;
import org.netnslab.metrics.RunResult;
import org.netnslab.scenario.DesignRunOutcome;

/**
 * A design run's outcome as it travels from a worker to the coordinator: plain values only, every figure
 * exact (each recorder's histogram in HdrHistogram's compressed encoding, its count and exact sums as
 * longs; doubles as doubles), so the coordinator merges what the worker measured to the last bit.
 *
 * @param name the design's name
 * @param strategies its strategy choices, in order
 * @param recorders each measure's recorder, in order
 * @param throughputPerSec as {@link DesignResult#throughputPerSec()}
 * @param throughputUnit as {@link DesignResult#throughputUnit()}
 * @param wallSeconds as {@link DesignResult#wallSeconds()}
 * @param invariants as {@link DesignResult#invariants()}
 * @param counters as {@link DesignResult#counters()}, in order
 * @param throughputSeries as {@link DesignResult#throughputSeries()}
 * @param clocks the run's clocks
 */
public record WireOutcome(
        String name,
        Map<String, String> strategies,
        List<Recorder> recorders,
        double throughputPerSec,
        String throughputUnit,
        double wallSeconds,
        Invariants invariants,
        Map<String, Long> counters,
        List<double[]> throughputSeries,
        RunResult.Clocks clocks) {

    /**
     * One measure's recorder.
     *
     * @param measure the measure's name
     * @param unit its unit
     * @param perUnit values per unit
     * @param count values recorded
     * @param sum their exact sum
     * @param squaresHigh high word of their exact sum of squares
     * @param squaresLow low word of it
     * @param histogram the histogram, HdrHistogram's compressed encoding
     */
    public record Recorder(
            String measure,
            String unit,
            double perUnit,
            long count,
            long sum,
            long squaresHigh,
            long squaresLow,
            byte[] histogram) {}

    /**
     * @param o a design run's outcome
     * @return its wire form
     */
    public static WireOutcome of(DesignRunOutcome o) {
        DesignResult r = o.result();
        List<Recorder> recorders = new ArrayList<>();
        r.recorders().forEach((m, rec) -> {
            Histogram h = rec.histogram();
            ByteBuffer buf = ByteBuffer.allocate(h.getNeededByteBufferCapacity());
            int n = h.encodeIntoCompressedByteBuffer(buf);
            byte[] bytes = new byte[n];
            buf.flip();
            buf.get(bytes);
            long[] sq = rec.sumOfSquares();
            recorders.add(new Recorder(m, rec.unit(), rec.perUnit(), rec.count(), rec.sumNanos(), sq[0], sq[1], bytes));
        });
        return new WireOutcome(
                r.name(),
                new LinkedHashMap<>(r.strategies()),
                recorders,
                r.throughputPerSec(),
                r.throughputUnit(),
                r.wallSeconds(),
                r.invariants(),
                new LinkedHashMap<>(r.counters()),
                r.throughputSeries(),
                o.clocks());
    }

    /**
     * @return the outcome it carries
     * @throws IllegalArgumentException when a histogram does not decode
     */
    public DesignRunOutcome outcome() {
        Map<String, LatencyRecorder> recs = new LinkedHashMap<>();
        for (Recorder r : recorders) {
            Histogram h;
            try {
                h = Histogram.decodeFromCompressedByteBuffer(ByteBuffer.wrap(r.histogram()), 0);
            } catch (java.util.zip.DataFormatException e) {
                throw new IllegalArgumentException(
                        "the histogram of " + r.measure() + " from a worker does not decode: " + e, e);
            }
            recs.put(r.measure(), LatencyRecorder.restored(r.unit(), r.perUnit(), h, r.count(), r.sum(), new long[] {
                r.squaresHigh(), r.squaresLow()
            }));
        }
        return new DesignRunOutcome(
                new DesignResult(
                        name,
                        strategies,
                        recs,
                        throughputPerSec,
                        throughputUnit,
                        wallSeconds,
                        invariants,
                        counters,
                        throughputSeries),
                clocks);
    }
}
