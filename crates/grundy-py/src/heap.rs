//! Heap games: the native heap game (notation, or a Python callable run in the library's
//! engines), its sequences, analyses and positions under normal and misère play.

use super::*;

/// A heap game of the command line's GAME notation, or a Python callable's rule: the library's
/// engines either way.
#[pyclass(frozen, module = "grundy._grundy", name = "NativeHeapGame")]
pub(crate) struct NativeHeapGame {
    /// Locked during a computation: a script rule is pointed at each call's cancel token.
    game: Mutex<HeapGame>,
    name: String,
    /// For a Python rule: the exception its callable raised, re-raised as it is.
    raised: Option<Arc<Mutex<Option<PyErr>>>>,
}

impl NativeHeapGame {
    /// Runs `f` on the game under `run`, the game's script (if any) watching the call's token.
    /// When a Python rule raised, its own exception is raised, not the library's error.
    pub(crate) fn with<T: Send>(
        &self,
        py: Python<'_>,
        progress: Option<&Bound<'_, PyAny>>,
        f: impl FnOnce(&HeapGame, &Control) -> grundy::Result<T> + Send,
    ) -> PyResult<T> {
        let result = run(py, progress, |ctl| {
            let mut game = self
                .game
                .lock()
                .map_err(|_| Error::Internal("a previous call panicked".into()))?;
            game.watch(ctl);
            f(&game, ctl)
        });
        let raised = self.raised.as_ref().and_then(|r| r.lock().ok()?.take());
        match (result, raised) {
            (Err(_), Some(e)) => Err(e),
            (result, _) => result,
        }
    }
}

/// A heap rule that is a Python callable: `rule(n)` returns the options of a heap of `n`, each
/// the heap left (an int, 0 when it is gone) or an iterable of the heaps left. The library
/// checks every answer (each heap below `n`, the declared shape); an exception of the callable
/// is kept to be raised as it is.
pub(crate) struct PyRule {
    rule: Py<PyAny>,
    shape: Option<Theorem>,
    raised: Arc<Mutex<Option<PyErr>>>,
}

impl PyRule {
    /// The options of `n` as the callable answers them.
    fn call(&self, py: Python<'_>, n: u64, out: &mut Options) -> PyResult<()> {
        let natural = |h: &Bound<'_, PyAny>| {
            h.extract::<u64>().map_err(|_| {
                PyValueError::new_err(format!(
                    "rule({n}) returned a heap of {h}: a heap is a natural number"
                ))
            })
        };
        let answer = self.rule.bind(py).call1((n,))?;
        let mut heaps: Vec<u64> = Vec::new();
        for option in answer.try_iter()? {
            let option = option?;
            heaps.clear();
            if option.is_instance_of::<PyInt>() {
                heaps.push(natural(&option)?);
            } else {
                for h in option.try_iter()? {
                    heaps.push(natural(&h?)?);
                }
            }
            out.push(&heaps);
        }
        Ok(())
    }
}

impl HeapRule for PyRule {
    fn options(&self, n: u64, out: &mut Options) -> grundy::Result<()> {
        Python::attach(|py| {
            self.call(py, n, out).map_err(|e| {
                let message = format!("rule({n}) raised {e}");
                if let Ok(mut slot) = self.raised.lock() {
                    slot.get_or_insert(e);
                }
                Error::invalid(message)
            })
        })
    }

    fn shape(&self) -> Option<Theorem> {
        self.shape
    }
}

/// The result of `HeapGame.analyze`: what the Grundy sequence does.
#[pyclass(frozen, module = "grundy", name = "Analysis")]
pub(crate) struct Analysis(SequenceAnalysis);

#[pymethods]
impl Analysis {
    /// The game's canonical notation.
    #[getter]
    fn game(&self) -> String {
        self.0.game.clone()
    }
    /// How many values were computed.
    #[getter]
    fn computed(&self) -> u128 {
        self.0.computed
    }
    /// The period p (G(n + p) = G(n) + saltus from the preperiod on), or None.
    #[getter]
    fn period(&self) -> Option<usize> {
        self.0.period.map(|p| p.period)
    }
    /// The first n from which the sequence is purely periodic, or None.
    #[getter]
    fn preperiod(&self) -> Option<usize> {
        self.0.period.map(|p| p.preperiod)
    }
    /// s in G(n + p) = G(n) + s (0 for plain periodicity), or None.
    #[getter]
    fn saltus(&self) -> Option<u64> {
        self.0.period.map(|p| p.saltus)
    }
    /// Whether the period is proved for every heap.
    #[getter]
    fn proved(&self) -> bool {
        self.0.proved
    }
    /// The theorem applied and the range of heaps it checked, in words (None without proof).
    #[getter]
    fn proof(&self) -> Option<String> {
        self.0.proof.as_ref().map(|p| p.to_string())
    }
    /// The number of runs of equal values, when the values were computed run by run.
    #[getter]
    fn runs(&self) -> Option<usize> {
        self.0.run_count()
    }
    /// The analysis as the document of `grundy analyze --json` and `POST /api/analyze`
    /// (`docs/schemas/analysis.json`), as a dict.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        document(py, &AnalysisDocument::from(&self.0))
    }
    /// Any other regularity found, in words and formulae.
    #[getter]
    fn pattern(&self) -> String {
        self.0.pattern.clone()
    }
    /// G(n) by the analysis (any size of n, where a pattern allows it).
    fn value(&self, n: &Bound<'_, PyAny>) -> PyResult<BigUint> {
        guard(|| self.0.value(&natural(n, "n")?).map_err(to_py))
    }
    /// The plot of `grundy analyze --plot`: the values, the preperiod shaded and the periods
    /// marked.
    fn plot(&self) -> PyResult<display::Plot> {
        display::Plot::of_analysis(&self.0)
    }
    fn _repr_svg_(&self) -> PyResult<String> {
        self.plot()?.svg()
    }
    fn __repr__(&self) -> String {
        let a = &self.0;
        let opt = |x: Option<String>| x.unwrap_or_else(|| "None".into());
        format!(
            "Analysis(game={:?}, computed={}, period={}, preperiod={}, saltus={}, proved={})",
            a.game,
            a.computed,
            opt(a.period.map(|p| p.period.to_string())),
            opt(a.period.map(|p| p.preperiod.to_string())),
            opt(a.period.map(|p| p.saltus.to_string())),
            if a.proved { "True" } else { "False" },
        )
    }
}

/// A position's analysis as plain values: (outcome, nim_sum, [(heap index, from, [to...])]).
pub(crate) type PositionTuple = (String, Option<BigUint>, Vec<(usize, BigUint, Vec<BigUint>)>);

pub(crate) fn position_tuple(a: PositionAnalysis) -> PositionTuple {
    (
        a.outcome.to_string(),
        a.nim_sum.map(BigUint::from),
        a.winning_moves
            .into_iter()
            .map(|m| {
                (
                    m.heap,
                    BigUint::from(m.from),
                    m.to.into_iter().map(BigUint::from).collect(),
                )
            })
            .collect(),
    )
}

#[pymethods]
impl NativeHeapGame {
    #[new]
    fn new(notation: &str) -> PyResult<Self> {
        guard(|| {
            let spec = parse_game(notation).map_err(|e| to_py(e.in_source("GAME").into()))?;
            let game = HeapGame::from_spec(spec).map_err(to_py)?;
            let name = game.spec().to_string();
            Ok(NativeHeapGame {
                game: Mutex::new(game),
                name,
                raised: None,
            })
        })
    }

    /// The game of a Python rule `rule(n)`, called `name`; `max_take` (with `max_heaps`)
    /// declares that a move takes at most `max_take` tokens and leaves at most `max_heaps`
    /// heaps, every such split of what is left being allowed whenever one is: the Guy-Smith
    /// theorem then proves periods (`max_heaps = 1` is a subtraction game).
    #[staticmethod]
    #[pyo3(signature = (rule, name, max_take=None, max_heaps=1))]
    fn from_rule(
        rule: &Bound<'_, PyAny>,
        name: &str,
        max_take: Option<u64>,
        max_heaps: u64,
    ) -> PyResult<Self> {
        guard(|| {
            if !rule.is_callable() {
                return Err(PyTypeError::new_err(
                    "the rule must be callable: rule(n) -> options",
                ));
            }
            let raised = Arc::new(Mutex::new(None));
            let shape = max_take.map(|t| Theorem::TakeBreak { h: max_heaps, t });
            let game = HeapGame::custom(
                name,
                PyRule {
                    rule: rule.clone().unbind(),
                    shape,
                    raised: raised.clone(),
                },
            );
            Ok(NativeHeapGame {
                game: Mutex::new(game),
                name: name.to_string(),
                raised: Some(raised),
            })
        })
    }

    #[getter]
    fn name(&self) -> String {
        self.name.clone()
    }

    /// G(0..n) as a numpy uint32 array.
    #[pyo3(signature = (n, progress=None))]
    fn sequence<'py>(
        &self,
        py: Python<'py>,
        n: u64,
        progress: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyArray1<u32>>> {
        guard(|| {
            let values = self.with(py, progress, |g, ctl| {
                sequence::compute(g, n, ctl).map(|s| s.to_vec())
            })?;
            Ok(PyArray1::from_vec(py, values))
        })
    }

    /// The analysis of the sequence up to `max` values (None: the game's default).
    #[pyo3(signature = (max=None, progress=None))]
    fn analyze(
        &self,
        py: Python<'_>,
        max: Option<u64>,
        progress: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Analysis> {
        guard(|| {
            let a = self.with(py, progress, |g, ctl| {
                value::analyze(g, max.unwrap_or_else(|| value::default_max(g.spec())), ctl)
            })?;
            Ok(Analysis(a))
        })
    }

    /// The default number of values `analyze` computes.
    fn default_max(&self) -> PyResult<u64> {
        guard(|| {
            let g = self
                .game
                .lock()
                .map_err(|_| InternalError::new_err("a previous call panicked"))?;
            Ok(value::default_max(g.spec()))
        })
    }

    /// G(n) for each n (any size), by proofs and patterns where n is beyond computing.
    #[pyo3(signature = (heaps, max=None, progress=None))]
    fn values(
        &self,
        py: Python<'_>,
        heaps: &Bound<'_, PyAny>,
        max: Option<u64>,
        progress: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Vec<BigUint>> {
        guard(|| {
            let heaps = naturals(heaps, "heap")?;
            self.with(py, progress, |g, ctl| {
                let max = max.unwrap_or_else(|| value::default_max(g.spec()));
                value::values(g, &heaps, max, ctl)
            })
        })
    }

    /// Outcome, nim-sum and winning moves of a sum of heaps.
    #[pyo3(signature = (heaps, misere=false, max=None, progress=None))]
    fn position(
        &self,
        py: Python<'_>,
        heaps: &Bound<'_, PyAny>,
        misere: bool,
        max: Option<u64>,
        progress: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PositionTuple> {
        guard(|| {
            let heaps = naturals(heaps, "heap")?;
            self.with(py, progress, |g, ctl| {
                position_of(g, &heaps, misere, max, ctl)
            })
        })
    }

    fn __repr__(&self) -> String {
        format!("HeapGame({:?})", self.name)
    }
}

/// `grundy position`: the engines for heaps they hold, Nim's own rule and proved patterns
/// beyond.
pub(crate) fn position_of(
    game: &HeapGame,
    heaps: &[BigUint],
    misere: bool,
    max: Option<u64>,
    ctl: &Control,
) -> grundy::Result<PositionTuple> {
    let small: Option<Vec<u64>> = heaps.iter().map(|h| h.to_u64()).collect();
    let engine_holds = |hs: &[u64]| {
        matches!(game.spec(), GameSpec::Nim | GameSpec::Divide(_))
            || hs.iter().all(|&h| h <= position::MAX_HEAP)
    };
    match small {
        Some(hs) if misere => return Ok(position_tuple(position::misere(game, &hs, ctl)?)),
        None if misere => {
            return Err(Error::limit(
                grundy::LimitKind::Fixed,
                "misère play is analysed for heaps below 2^64",
                "use smaller heaps",
            ))
        }
        Some(hs) if engine_holds(&hs) => {
            return Ok(position_tuple(position::normal(game, &hs, ctl)?))
        }
        _ => {}
    }
    let a = position::normal_by_pattern(game, heaps, max, ctl)?;
    let moves = a
        .winning_moves
        .into_iter()
        .map(|m| (m.heap, m.from, m.to))
        .collect();
    Ok((a.outcome.to_string(), Some(a.nim_sum), moves))
}
