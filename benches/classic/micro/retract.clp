; n facts retracted one by one.
(defrule make (declare (salience 1)) (n ?n) => (loop-for-count (?i 1 ?n) (assert (item ?i))))
(defrule take ?f <- (item ?) => (retract ?f))
(defrule left (declare (salience -1)) => (printout t "left " (length$ (find-all-facts ((?f item)) TRUE)) crlf))
