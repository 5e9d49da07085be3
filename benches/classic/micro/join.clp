; A 3-way equality join (a chain a-b-c) over n facts of each relation: n matches.
(defrule make (n ?n) => (loop-for-count (?i 1 ?n) (assert (c ?i ?i) (b ?i ?i) (a ?i ?i))))
(defrule join (a ?x ?y) (b ?y ?z) (c ?z ?w) => (assert (chain ?x ?w)))
(defrule count (declare (salience -1)) => (printout t "matched " (length$ (find-all-facts ((?f chain)) TRUE)) crlf))
