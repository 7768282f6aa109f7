package org.netnslab.calibrate;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * A recording's ladder against its own {@code ladder.sizes}: each kind it ran has a prediction line at every step
 * and at no other size (a cut or edited recording would read as a ladder of other steps), and its unseen shapes are
 * drawn again from its {@code unseen.seed} ({@link UnseenShapes#draw}), so an edited seed is refused rather than
 * printed as the draw's. Recordings from before the ladder (no {@code ladder.sizes}) pass. Stateless.
 */
final class RecordedLadder {
    private RecordedLadder() {}

    /**
     * @param root a calibration.json's root object
     * @return why its ladder lines are not its steps, or its unseen lines not the draw of its seed; null when they are
     */
    static String problem(JsonNode root) {
        JsonNode sizes = root.path("ladder").path("sizes");
        if (!sizes.isObject()) {
            return null;
        }
        Map<Ladder.Kind, List<Long>> steps = new EnumMap<>(Ladder.Kind.class);
        Map<Ladder.Kind, java.util.Set<Long>> run = new EnumMap<>(Ladder.Kind.class);
        for (Ladder.Kind k : Ladder.Kind.values()) {
            List<Long> s = new ArrayList<>();
            sizes.path(k.load).forEach(v -> s.add(v.asLong()));
            steps.put(k, List.copyOf(s));
            run.put(k, new java.util.TreeSet<>());
        }
        for (JsonNode l : root.path("prediction_set")) {
            UnseenShapes.Shape s = shape(l);
            if (s != null) {
                run.get(s.kind()).add(s.size());
            }
        }
        for (Ladder.Kind k : Ladder.Kind.values()) {
            java.util.Set<Long> want = new java.util.TreeSet<>(steps.get(k));
            if (!run.get(k).isEmpty() && !run.get(k).equals(want)) { // a kind --only left out has no line at all
                return "prediction_set's " + k.load + " lines are of " + k.unit + " " + run.get(k)
                        + ", where ladder.sizes." + k.load + " says " + want + " ran: a cut or edited recording";
            }
        }
        return unseen(root, steps);
    }

    /**
     * @param steps the recording's ladder, each kind's sizes as {@code ladder.sizes} lists them
     * @return why the unseen lines are not the draw of the recorded seed, or null (also for no seed or no line)
     */
    private static String unseen(JsonNode root, Map<Ladder.Kind, List<Long>> steps) {
        JsonNode seed = root.path("unseen").path("seed");
        JsonNode lines = root.path("unseen_set");
        if (!seed.isIntegralNumber() || lines.size() == 0) {
            return null;
        }
        List<UnseenShapes.Shape> drawn = UnseenShapes.draw(
                seed.asLong(),
                new Ladder.Plan(steps, List.of(), null, root.path("quick").asBoolean(false)));
        for (int i = 0; i < lines.size(); i++) {
            UnseenShapes.Shape shape = shape(lines.get(i));
            if (shape != null && !drawn.contains(shape)) {
                return "unseen_set[" + i + "] (" + shape.kind().load + " of " + shape.size() + ") is not a shape"
                        + " unseen.seed " + seed.asLong() + " draws over ladder.sizes (it draws "
                        + drawn.stream()
                                .map(d -> d.kind().load + " " + d.size())
                                .toList()
                        + "): was the seed or the line edited?";
            }
        }
        return null;
    }

    /** @return the shape a line measured, by its load's size field, or null for a load no shape is drawn of */
    private static UnseenShapes.Shape shape(JsonNode l) {
        return switch (l.path("load").asText()) {
            case "tc1" ->
                new UnseenShapes.Shape(Ladder.Kind.TC1, l.path("injectors").asLong());
            case "reorder" ->
                new UnseenShapes.Shape(
                        Ladder.Kind.REORDER, l.path("injectors_into_one_netns").asLong());
            case "unshare-loops" ->
                new UnseenShapes.Shape(Ladder.Kind.LOOPS, l.path("loops").asLong());
            case "listener" ->
                new UnseenShapes.Shape(
                        Ladder.Kind.LISTENERS, l.path("processes").asLong());
            case "proc-scan" ->
                new UnseenShapes.Shape(
                        Ladder.Kind.SCAN, l.path("live_requested").asLong());
            default -> null;
        };
    }
}
