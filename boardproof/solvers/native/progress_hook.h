/* The progress hook shared by the native searches (minefield.c, carpniches.c).
 *
 * hook_cb is a Python callable or NULL; each search calls it every 2**20 nodes with its
 * node counter and a depth of its own choosing, and treats an exception raised by it
 * as an interrupt. py_set_hook is the module function set_hook(f) (None removes it).
 * Included once per extension module, after Python.h. */
#ifndef BOARDPROOF_PROGRESS_HOOK_H
#define BOARDPROOF_PROGRESS_HOOK_H

static PyObject *hook_cb = NULL;

static PyObject *py_set_hook(PyObject *self, PyObject *f) {
    if (f != Py_None && !PyCallable_Check(f)) {
        PyErr_SetString(PyExc_TypeError, "set_hook: expected a callable or None");
        return NULL;
    }
    PyObject *old = hook_cb;
    Py_XINCREF(f == Py_None ? NULL : f);
    hook_cb = f == Py_None ? NULL : f;
    Py_XDECREF(old);
    Py_RETURN_NONE;
}

#endif
