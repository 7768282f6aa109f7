package org.netnslab.fault;

/**
 * What a fault switch throws: a deliberate failure of a model actor or stage while it handles a
 * message, naming the switch that fired. Only this type is resumed by the supervision the switches
 * exercise; any other failure keeps the typed default (the actor stops).
 */
public final class ModelFault extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final transient FaultSwitch which;

    /**
     * @param which the switch that fired
     * @param where what was being handled, e.g. {@code netns 3 handling Inject}
     */
    public ModelFault(FaultSwitch which, String where) {
        super("fault switch " + which.key() + " fired: " + where);
        this.which = which;
    }

    /** @return the switch that fired */
    public FaultSwitch which() {
        return which;
    }
}
