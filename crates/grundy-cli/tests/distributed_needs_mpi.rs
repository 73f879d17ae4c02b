//! The runs under a real `mpirun` are in `tests/distributed.rs`, which is built only with the
//! `mpi` feature. Without it, this test stands in for them, so that `cargo test` reports them as
//! ignored with the way to run them instead of leaving them out silently.

#[cfg(not(feature = "mpi"))]
#[test]
#[ignore = "needs the mpi feature and OpenMPI's mpirun: \
            cargo test -p grundy-cli --release --features mpi --test distributed"]
fn runs_over_mpi_ranks() {
    panic!(
        "the runs over MPI ranks are not built without the mpi feature: \
         cargo test -p grundy-cli --release --features mpi --test distributed"
    );
}
