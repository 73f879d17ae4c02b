// The part of the CGSuite core and of the Scala library that MisereSolver's sources
// (org.cgsuite.core.misere.solver, CGSuite's repository) call, written for Java so that the
// solver compiles with javac alone: heap rulesets (octal codes and Grundy's game) and the few
// collection types its `heapOptions` goes through. The build in
// `crates/grundy-cli/benches/misere_vs_miseresolver.sh` splits this file into one file per
// public type (the `//FILE` lines) and compiles them with the solver's own files.
//FILE org/cgsuite/core/Integer.java
package org.cgsuite.core;

/** An integer as CGSuite's core passes it (only what the solver calls). */
public final class Integer {
    private final int value;

    private Integer(int value) {
        this.value = value;
    }

    public static Integer apply(int value) {
        return new Integer(value);
    }

    public int intValue() {
        return value;
    }
}
//FILE scala/collection/immutable/IndexedSeq.java
package scala.collection.immutable;

/** An indexed sequence: a heap option as the list of the heaps it leaves. */
public interface IndexedSeq<A> {
    int length();

    A apply(int i);
}
//FILE scala/collection/immutable/Seq.java
package scala.collection.immutable;

/** A sequence of options, seen through `toSeq` and converted to a Java list. */
public final class Seq<A> {
    private final java.util.List<A> items;

    public Seq(java.util.List<A> items) {
        this.items = items;
    }

    public Seq<A> toSeq() {
        return this;
    }

    public java.util.List<A> items() {
        return items;
    }
}
//FILE scala/jdk/CollectionConverters.java
package scala.jdk;

/** `CollectionConverters.SeqHasAsJava(s).asJava()` as the solver writes it. */
public final class CollectionConverters {
    private CollectionConverters() {}

    public static <A> SeqHasAsJava<A> SeqHasAsJava(scala.collection.immutable.Seq<A> s) {
        return new SeqHasAsJava<A>(s);
    }

    public static final class SeqHasAsJava<A> {
        private final scala.collection.immutable.Seq<A> s;

        SeqHasAsJava(scala.collection.immutable.Seq<A> s) {
            this.s = s;
        }

        public java.util.List<A> asJava() {
            return s.items();
        }
    }
}
//FILE org/cgsuite/core/impartial/HeapRuleset.java
package org.cgsuite.core.impartial;

import org.cgsuite.core.Integer;
import scala.collection.immutable.IndexedSeq;
import scala.collection.immutable.Seq;

/** A heap game: the options of a heap, each the list of the heaps it leaves. */
public abstract class HeapRuleset {
    /** The options of a heap of `heapSize` tokens, as arrays of the heaps each leaves. */
    protected abstract java.util.List<int[]> options(int heapSize);

    public Seq<IndexedSeq<Integer>> heapOptions(Integer heapSize) {
        java.util.List<IndexedSeq<Integer>> out = new java.util.ArrayList<>();
        for (int[] option : options(heapSize.intValue())) {
            out.add(new IndexedSeq<Integer>() {
                public int length() {
                    return option.length;
                }

                public Integer apply(int i) {
                    return Integer.apply(option[i]);
                }
            });
        }
        return new Seq<>(out);
    }

    /** The periodicity checker of the solver's command line, or null. */
    public PeriodicityChecker periodicityChecker() {
        return null;
    }
}
//FILE org/cgsuite/core/impartial/Periodicity.java
package org.cgsuite.core.impartial;

/** A period found by `PeriodicityChecker`. */
public final class Periodicity {
    private final int period, preperiod, saltus;

    public Periodicity(int period, int preperiod, int saltus) {
        this.period = period;
        this.preperiod = preperiod;
        this.saltus = saltus;
    }

    public int period() {
        return period;
    }

    public int preperiod() {
        return preperiod;
    }

    public int saltus() {
        return saltus;
    }
}
//FILE org/cgsuite/core/impartial/TBCode.java
package org.cgsuite.core.impartial;

/**
 * An octal code 0.d1d2...dt: removing k tokens is allowed leaving no heap when bit 1 of d_k is
 * set, one heap when bit 2 is, two heaps when bit 4 is (the heaps left are non-empty).
 */
public final class TBCode {
    final int[] digits;
    final String code;

    private TBCode(String code, int[] digits) {
        this.code = code;
        this.digits = digits;
    }

    public static TBCode apply(String code) {
        if (!code.startsWith("0.") || code.length() < 3) {
            throw new IllegalArgumentException("not an octal code 0.d1d2...: " + code);
        }
        int[] d = new int[code.length() - 1];
        for (int k = 1; k < d.length; k++) {
            char c = code.charAt(k + 1);
            if (c < '0' || c > '7') {
                throw new IllegalArgumentException("not an octal code 0.d1d2...: " + code);
            }
            d[k] = c - '0';
        }
        return new TBCode(code, d);
    }

    /** The most heaps a move leaves. */
    int maxHeaps() {
        int r = 1;
        for (int x : digits) {
            if ((x & 4) != 0) {
                r = 2;
            }
        }
        return r;
    }

    public String toString() {
        return code;
    }
}
//FILE org/cgsuite/core/impartial/TakeAndBreak.java
package org.cgsuite.core.impartial;

/** The heap ruleset of an octal code. */
public final class TakeAndBreak extends HeapRuleset {
    private final TBCode code;

    private TakeAndBreak(TBCode code) {
        this.code = code;
    }

    public static TakeAndBreak apply(String code) {
        return new TakeAndBreak(TBCode.apply(code));
    }

    protected java.util.List<int[]> options(int n) {
        java.util.List<int[]> out = new java.util.ArrayList<>();
        int[] d = code.digits;
        for (int k = 1; k < d.length && k <= n; k++) {
            int rest = n - k;
            if ((d[k] & 1) != 0 && rest == 0) {
                out.add(new int[0]);
            }
            if ((d[k] & 2) != 0 && rest > 0) {
                out.add(new int[] {rest});
            }
            if ((d[k] & 4) != 0) {
                for (int a = 1; 2 * a <= rest; a++) {
                    out.add(new int[] {a, rest - a});
                }
            }
        }
        return out;
    }

    /**
     * The criterion of the solver's command line for take-and-break codes: period p from
     * preperiod n0, r(n0 + p) + (t - 1 + r) <= N + 1, saltus 0.
     */
    public PeriodicityChecker periodicityChecker() {
        PeriodicityChecker checker = new PeriodicityChecker();
        int r = code.maxHeaps();
        checker.setLinearCriteria(r, r, code.digits.length - 1 + r);
        checker.setMaxSaltus(0);
        return checker;
    }

    public String toString() {
        return code.toString();
    }
}
//FILE org/cgsuite/core/impartial/GrundysGame.java
package org.cgsuite.core.impartial;

/** Grundy's game: split a heap into two non-empty heaps of different sizes. */
public final class GrundysGame extends HeapRuleset {
    protected java.util.List<int[]> options(int n) {
        java.util.List<int[]> out = new java.util.ArrayList<>();
        for (int a = 1; 2 * a < n; a++) {
            out.add(new int[] {a, n - a});
        }
        return out;
    }

    public String toString() {
        return "grundys-game";
    }
}
//FILE org/cgsuite/core/misere/solver/TimeoutException.java
package org.cgsuite.core.misere.solver;

/** Thrown by the solver when its thread is interrupted. */
class TimeoutException extends RuntimeException {}
//FILE org/cgsuite/core/misere/solver/Bench.java
package org.cgsuite.core.misere.solver;

import org.cgsuite.core.impartial.GrundysGame;
import org.cgsuite.core.impartial.HeapRuleset;
import org.cgsuite.core.impartial.Periodicity;
import org.cgsuite.core.impartial.PeriodicityChecker;
import org.cgsuite.core.impartial.TakeAndBreak;

/**
 * `java Bench GAME MAXHEAP`: the loop of the solver's command line (quiet, no MSV file):
 * `next()` heap by heap up to MAXHEAP, stopping early when the periodicity checker of a
 * take-and-break code proves the heap map periodic; then one line
 * `heap H |Q| = N |P| = M` (H the last heap adjoined). With the environment variable
 * MISERESOLVER_LOG set, the solver's own log (every candidate it tries at a heap that changes
 * the presentation, and its least failure) goes to standard output as it runs.
 */
public final class Bench {
    public static void main(String[] args) {
        HeapRuleset rules;
        switch (args[0]) {
            case "kayles":
                rules = TakeAndBreak.apply("0.77");
                break;
            case "dawsons-kayles":
                rules = TakeAndBreak.apply("0.07");
                break;
            case "grundys-game":
                rules = new GrundysGame();
                break;
            default:
                rules = TakeAndBreak.apply(args[0].startsWith("octal:") ? args[0].substring(6) : args[0]);
        }
        int maxHeap = java.lang.Integer.parseInt(args[1]);
        MisereSolver ms = new MisereSolver(rules);
        if (System.getenv("MISERESOLVER_LOG") != null) {
            ms.logs.add(System.out);
        }
        PeriodicityChecker checker = rules.periodicityChecker();
        while (ms.p.prefn.size() <= maxHeap) {
            if (checker != null) {
                Periodicity per = checker.checkSequence(ms.p.prefn);
                if (per != null && per.saltus() == 0) {
                    break;
                }
            }
            ms.next();
        }
        System.out.println("heap " + (ms.p.prefn.size() - 1) + " |Q| = " + ms.p.quotient.size()
            + " |P| = " + ms.p.quotient.pPortionSize());
    }
}
