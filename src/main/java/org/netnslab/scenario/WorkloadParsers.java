package org.netnslab.scenario;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.netnslab.settings.HoconChecker;
import org.netnslab.workload.Workload;
import org.netnslab.workload.WorkloadParser;
import org.netnslab.workload.churn.NetnsChurnParser;
import org.netnslab.workload.injection.UeventInjectionParser;
import org.netnslab.workload.procevents.ProcEventsParser;
import org.netnslab.workload.scale.NetnsScaleParser;
import org.netnslab.workload.soak.IsolationSoakParser;

/**
 * The workload types a scenario may name, each with its parser: the one place {@code workload.type}
 * is switched on.
 */
final class WorkloadParsers {
    private WorkloadParsers() {}

    /** Parser by {@code workload.type}, in the order error messages list them. */
    private static final Map<String, WorkloadParser> BY_TYPE = byType(
            new UeventInjectionParser(),
            new NetnsChurnParser(),
            new ProcEventsParser(),
            new IsolationSoakParser(),
            new NetnsScaleParser());

    private static Map<String, WorkloadParser> byType(WorkloadParser... parsers) {
        Map<String, WorkloadParser> m = new LinkedHashMap<>();
        for (WorkloadParser p : parsers) {
            m.put(p.type(), p);
        }
        return Collections.unmodifiableMap(m);
    }

    /**
     * Reads {@code workload}: its type, then the type's own keys.
     *
     * @param c the scenario's checker
     * @param scale {@code --scale}
     * @return the workload, or null when the block or its type is missing or unknown (a problem is recorded)
     */
    static Workload parse(HoconChecker c, double scale) {
        if (c.object("workload") == null) {
            return null;
        }
        String type = c.string("workload.type", null);
        if (type == null) {
            return null;
        }
        WorkloadParser p = BY_TYPE.get(type);
        if (p == null) {
            List<String> types = new ArrayList<>(BY_TYPE.keySet());
            String last = types.remove(types.size() - 1);
            c.problem(
                    "workload.type",
                    "unknown workload type '" + type + "'; expected " + String.join(", ", types) + " or " + last);
            return null;
        }
        return p.parse(c, scale);
    }
}
