package main

import (
	"encoding/json"
	"io"
	"sync"
	"time"
)

// answerWait bounds how long the end of mcp's input is held back for the
// answers to the requests before it.
const answerWait = 30 * time.Second

// stdio is the mcp command's standard input and output. A client that
// writes its requests and then closes its end of the pipe (printf ... |
// skilldex mcp) gets every answer: the SDK cancels the requests in flight
// when its reader ends, so the end of the input is held back until every
// request read has been answered, or answerWait has passed.
type stdio struct {
	r io.Reader
	w io.Writer

	mu       sync.Mutex
	requests int           // requests read: messages with an id and a method
	answers  int           // responses written: messages with an id and no method
	changed  chan struct{} // closed, and replaced, when answers changes
	eof      bool          // in ended; the next Read waits, then says so
	in, out  jsonValues    // the messages read and written, split
}

func newStdio(in io.Reader, out io.Writer) *stdio {
	return &stdio{r: in, w: out, changed: make(chan struct{})}
}

func (s *stdio) Read(p []byte) (int, error) {
	if s.eof {
		s.waitForAnswers()
		return 0, io.EOF
	}
	n, err := s.r.Read(p)
	s.mu.Lock()
	s.in.feed(p[:n], func(v []byte) { s.requests += countMessages(v, true) })
	s.mu.Unlock()
	if err == io.EOF {
		// What came with the end is the server's to read first.
		s.eof = true
		if n > 0 {
			return n, nil
		}
		s.waitForAnswers()
	}
	return n, err
}

func (s *stdio) Write(p []byte) (int, error) {
	n, err := s.w.Write(p)
	s.mu.Lock()
	answers := s.answers
	s.out.feed(p[:n], func(v []byte) { s.answers += countMessages(v, false) })
	if s.answers != answers {
		close(s.changed)
		s.changed = make(chan struct{})
	}
	s.mu.Unlock()
	return n, err
}

// Close does nothing: the command's standard input and output outlive the
// session.
func (s *stdio) Close() error { return nil }

// waitForAnswers returns when every request read has been answered, or
// answerWait after it was called.
func (s *stdio) waitForAnswers() {
	deadline := time.NewTimer(answerWait)
	defer deadline.Stop()
	for {
		s.mu.Lock()
		done, changed := s.answers >= s.requests, s.changed
		s.mu.Unlock()
		if done {
			return
		}
		select {
		case <-changed:
		case <-deadline.C:
			return
		}
	}
}

// countMessages counts the requests (requests true: an id and a method)
// or the responses (an id and no method) in a JSON-RPC message: an object,
// or a batch of them.
func countMessages(value []byte, requests bool) int {
	type message struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	var batch []message
	if len(value) > 0 && value[0] == '[' {
		if json.Unmarshal(value, &batch) != nil {
			return 0
		}
	} else {
		var m message
		if json.Unmarshal(value, &m) != nil {
			return 0
		}
		batch = []message{m}
	}
	count := 0
	for _, m := range batch {
		if len(m.ID) > 0 && string(m.ID) != "null" && (m.Method != "") == requests {
			count++
		}
	}
	return count
}

// jsonValues splits a stream into its top-level JSON objects and arrays,
// however they are spread over lines and reads, as the SDK's decoder
// reads them. What is between them (blanks, and anything that is no
// object or array) is skipped.
type jsonValues struct {
	buf           []byte
	depth         int
	inString, esc bool
}

// feed scans data and calls fn with each value it completes.
func (j *jsonValues) feed(data []byte, fn func(value []byte)) {
	for _, c := range data {
		if j.depth == 0 {
			if c != '{' && c != '[' {
				continue
			}
			j.buf = j.buf[:0]
		}
		j.buf = append(j.buf, c)
		switch {
		case j.inString:
			switch {
			case j.esc:
				j.esc = false
			case c == '\\':
				j.esc = true
			case c == '"':
				j.inString = false
			}
		case c == '"':
			j.inString = true
		case c == '{' || c == '[':
			j.depth++
		case c == '}' || c == ']':
			j.depth--
			if j.depth == 0 {
				fn(j.buf)
			}
		}
	}
}
