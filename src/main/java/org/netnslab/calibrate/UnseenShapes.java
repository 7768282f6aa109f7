package org.netnslab.calibrate;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The unseen shapes: loads drawn at random from the ladder's ranges ({@link Ladder.Plan}), one of each kind, seeded
 * so a draw can be made again ({@code calibrate --seed}). Each is run once on the host and predicted, a third set
 * beside the fit set and the prediction set: nothing is fitted on them and nothing is chosen by them. A size is drawn
 * uniformly on a log scale between the kind's smallest and largest ladder step (the ladders span decades), and moved
 * off a ladder step it lands on. {@code --quick} draws two small shapes, a TC1 and a /proc scan, from its own ladder.
 */
final class UnseenShapes {
    private UnseenShapes() {}

    /**
     * One drawn shape.
     *
     * @param kind the load
     * @param size its size (injectors, loops, processes)
     */
    record Shape(Ladder.Kind kind, long size) {}

    /** The kinds a full calibration draws, one shape each. */
    static final List<Ladder.Kind> FULL_KINDS = List.of(Ladder.Kind.values());

    /** The kinds {@code --quick} draws, one small shape each. */
    static final List<Ladder.Kind> QUICK_KINDS = List.of(Ladder.Kind.TC1, Ladder.Kind.SCAN);

    /**
     * @param seed the draw's seed
     * @param ladder the ladder whose ranges the sizes come from
     * @return one shape of each kind ({@link #FULL_KINDS}, or {@link #QUICK_KINDS} for a quick ladder), in that order;
     *     a kind whose ladder a host limit left without two sizes is not drawn
     */
    static List<Shape> draw(long seed, Ladder.Plan ladder) {
        SplittableRandom random = new SplittableRandom(seed);
        List<Shape> shapes = new ArrayList<>();
        for (Ladder.Kind k : ladder.quick() ? QUICK_KINDS : FULL_KINDS) {
            long lo = ladder.smallest(k);
            long hi = ladder.largest(k);
            double u = random.nextDouble(); // drawn whatever the range, so one kind's range moves no other's size
            if (hi <= lo) {
                continue;
            }
            long size = Math.round(Math.exp(Math.log(lo) + u * (Math.log(hi) - Math.log(lo))));
            size = Math.max(lo, Math.min(hi, size));
            if (ladder.sizes().get(k).contains(size)) { // a measured step is not unseen
                size = size < hi ? size + 1 : size - 1;
            }
            shapes.add(new Shape(k, size));
        }
        return List.copyOf(shapes);
    }

    /**
     * @param lines the unseen shapes' probe lines (a proc listeners shape prints a line per listener)
     * @return how many shapes they are: distinct loads and sizes
     */
    static int count(List<com.fasterxml.jackson.databind.node.ObjectNode> lines) {
        return (int) lines.stream()
                .map(l -> l.path("probe").asText() + "/" + l.path("load").asText() + "/" + l.path("injectors")
                        + "/" + l.path("injectors_into_one_netns") + "/" + l.path("processes") + "/"
                        + l.path("live_requested") + "/" + l.path("loops"))
                .distinct()
                .count();
    }

    /** @return a seed from the clock, for a calibrate that names none */
    static long clockSeed() {
        return System.currentTimeMillis() ^ System.nanoTime();
    }
}
