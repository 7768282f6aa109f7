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
        JsonNode ladder = root.path("prediction_set");
        for (Ladder.Kind k : Ladder.Kind.values()) {
            java.util.Set<Long> steps = new java.util.TreeSet<>();
            sizes.path(k.load).forEach(v -> steps.add(v.asLong()));
            java.util.Set<Long> run = new java.util.TreeSet<>();
            for (JsonNode l : ladder) {
                UnseenShapes.Shape s = shape(l);
                if (s != null && s.kind() == k) {
                    run.add(s.size());
                }
            }
            if (!run.isEmpty() && !run.equals(steps)) { // a kind --only left out has no line at all
                return "prediction_set's " + k.load + " lines are of " + k.unit + " " + run + ", where ladder.sizes."
                        + k.load + " says " + steps + " ran: a cut or edited recording";
            }
        }
        return unseen(root, sizes);
    }

    /** @return why the unseen lines are not the draw of the recorded seed, or null (also for no seed or no line) */
    private static String unseen(JsonNode root, JsonNode sizes) {
        JsonNode seed = root.path("unseen").path("seed");
        JsonNode lines = root.path("unseen_set");
        if (!seed.isIntegralNumber() || lines.size() == 0) {
            return null;
        }
        Map<Ladder.Kind, List<Long>> plan = new EnumMap<>(Ladder.Kind.class);
        for (Ladder.Kind k : Ladder.Kind.values()) {
            List<Long> s = new ArrayList<>();
            sizes.path(k.load).forEach(v -> s.add(v.asLong()));
            plan.put(k, List.copyOf(s));
        }
        List<UnseenShapes.Shape> drawn = UnseenShapes.draw(
                seed.asLong(),
                new Ladder.Plan(plan, List.of(), null, root.path("quick").asBoolean(false)));
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
