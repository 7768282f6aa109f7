package org.netnslab.metrics;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import org.junit.Test;
import org.netnslab.workload.churn.NetnsChurnWorkload;
import org.netnslab.workload.injection.UeventInjectionWorkload;
import org.netnslab.workload.procevents.ProcEventsWorkload;
import org.netnslab.workload.scale.NetnsScaleWorkload;
import org.netnslab.workload.soak.IsolationSoakWorkload;
import org.scalatestplus.junit.JUnitSuite;

/** Every measure a workload records says what it times (the timing boundary in the description). */
public class MeasureDescriptionsTest extends JUnitSuite {

    /** @return the values of a workload's public static String constants that name a measure ("family.name") */
    private static List<String> measureNames(Class<?> workload) throws IllegalAccessException {
        List<String> names = new ArrayList<>();
        for (Field f : workload.getFields()) {
            if (Modifier.isStatic(f.getModifiers())
                    && f.getType() == String.class
                    && ((String) f.get(null)).matches("[a-z]+\\.[a-z_]+\\.?")) {
                names.add((String) f.get(null));
            }
        }
        return names;
    }

    @Test
    public void everyWorkloadMeasureIsDescribed() throws Exception {
        List<String> all = new ArrayList<>();
        for (Class<?> w : List.of(
                UeventInjectionWorkload.class,
                NetnsChurnWorkload.class,
                ProcEventsWorkload.class,
                NetnsScaleWorkload.class,
                IsolationSoakWorkload.class)) {
            all.addAll(measureNames(w));
        }
        assertEquals("the 15 measures of the five workloads: " + all, 15, all.size());
        for (String m : all) {
            String name = m.endsWith(".") ? m + "pidfd" : m; // proc.listener_busy.<listener>
            assertTrue(m + " has a description", MeasureDescriptions.of(name).isPresent());
        }
    }

    @Test
    public void theSendSaysWhereItsClockStartsAndStops() {
        String send =
                MeasureDescriptions.of(UeventInjectionWorkload.TRANSACTION).orElseThrow();
        assertTrue(send, send.contains("just before the sendmsg to just after the call returns to user space"));
        assertTrue(send, send.contains("the wait for a CPU before the call is not"));
        assertTrue(MeasureDescriptions.of("proc.listener_busy.exit-only")
                .orElseThrow()
                .contains("monitor 'exit-only' spent"));
        assertFalse(MeasureDescriptions.of("no.such_measure").isPresent());
    }
}
