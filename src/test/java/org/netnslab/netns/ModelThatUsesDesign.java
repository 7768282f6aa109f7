package org.netnslab.netns;

import org.netnslab.design.Design;

/** A model class that reaches up into the design layer: what ArchitectureTest must reject. */
final class ModelThatUsesDesign {
    private ModelThatUsesDesign() {}

    static String nameOf(Design d) {
        return d.name();
    }
}
