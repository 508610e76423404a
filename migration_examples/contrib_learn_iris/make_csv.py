"""Writes the bundled iris_training.csv / iris_test.csv: seeded synthetic stand-ins for
the Iris data of TF 1.0's tutorial (same CSV layout - a header "rows,4,setosa,versicolor,
virginica" then four measurements and the class id per row), three well separated
clusters so the tutorial's two new samples are clearly classes 1 and 2."""
import numpy as np

MEANS = np.array([[5.0, 3.4, 1.5, 0.2], [6.2, 3.0, 4.3, 1.3], [5.9, 3.1, 5.4, 1.9]])


def write(path, rows_per_class, seed):
    rng = np.random.RandomState(seed)
    rows = []
    for label, mean in enumerate(MEANS):
        for x in rng.normal(mean, 0.12, size=(rows_per_class, 4)):
            rows.append([f"{v:.1f}" for v in x] + [str(label)])
    order = rng.permutation(len(rows))
    with open(path, "w") as f:
        f.write(f"{len(rows)},4,setosa,versicolor,virginica\n")
        for i in order:
            f.write(",".join(rows[i]) + "\n")


if __name__ == "__main__":
    write("iris_training.csv", 40, 0)
    write("iris_test.csv", 10, 1)
