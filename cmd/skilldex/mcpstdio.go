package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// answerWait bounds how long the end of mcp's input is held back for the
// answers to the requests before it.
const answerWait = 30 * time.Second

// stdio is the mcp command's standard input and output, between the
// client and the SDK's transport, for what the transport does not do:
//
//   - The transport ends the session at the first input it cannot take: a
//     line of bad JSON, a number, an empty batch, a batch where the
//     protocol has none or with an id twice, a line over its length limit.
//     stdio reads the input as MCP's stdio transport defines it, one
//     message a line, and passes the SDK only messages jsonrpc.DecodeMessage
//     reads, one a line, the elements of a batch each on its own (so the
//     SDK answers them one by one, which JSON-RPC's clients match by id).
//     The rest it answers itself, with JSON-RPC's parse error or invalid
//     request.
//   - A client that writes its requests and then closes its end of the
//     pipe (printf ... | skilldex mcp) should get every answer, but the
//     SDK cancels the requests in flight when its reader ends. The end of
//     the input is held back until every request read has been answered,
//     or answerWait has passed.
type stdio struct {
	r io.Reader
	w io.Writer

	writing sync.Mutex // one message at a time on w

	// Read's state: Read is called by one goroutine at a time.
	chunk    []byte // what the last read of r returned
	line     []byte // the line being read
	skipping bool   // the line is longer than maxMessage: dropped to its end
	ready    []byte // messages checked, one a line, for the SDK to read
	eof      bool   // r ended; once ready is read, Read waits, then says so
	readErr  error  // r failed; said once ready is read

	mu         sync.Mutex
	unanswered map[string]bool // ids (idKey) of the requests passed on and not answered
	changed    chan struct{}   // closed, and replaced, when unanswered shrinks
	out        jsonValues      // the messages written, split
}

// maxMessage is the longest line passed on: the SDK ends the session at a
// longer one.
const maxMessage = mcp.DefaultMaxLineLength - 1

func newStdio(in io.Reader, out io.Writer) *stdio {
	return &stdio{r: in, w: out, unanswered: map[string]bool{}, changed: make(chan struct{}), chunk: make([]byte, 32<<10)}
}

func (s *stdio) Read(p []byte) (int, error) {
	for len(s.ready) == 0 {
		switch {
		case s.readErr != nil:
			return 0, s.readErr
		case s.eof:
			s.waitForAnswers()
			return 0, io.EOF
		}
		n, err := s.r.Read(s.chunk)
		if werr := s.feed(s.chunk[:n]); werr != nil {
			return 0, werr
		}
		switch {
		case err == io.EOF:
			s.eof = true
			if werr := s.endLine(); werr != nil { // a last line without its line break
				return 0, werr
			}
		case err != nil:
			s.readErr = err
		}
	}
	n := copy(p, s.ready)
	s.ready = s.ready[n:]
	return n, nil
}

// feed takes data into the line being read, and each line it ends.
func (s *stdio) feed(data []byte) error {
	for len(data) > 0 {
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			return s.extend(data)
		}
		if err := s.extend(data[:i]); err != nil {
			return err
		}
		if err := s.endLine(); err != nil {
			return err
		}
		data = data[i+1:]
	}
	return nil
}

// extend adds b to the line being read, unless that makes it too long.
func (s *stdio) extend(b []byte) error {
	if s.skipping {
		return nil
	}
	if len(s.line)+len(b) > maxMessage {
		s.line, s.skipping = s.line[:0], true
		return s.answer(nil, jsonrpc.CodeInvalidRequest, fmt.Sprintf("invalid request: a message of more than %d bytes", maxMessage))
	}
	s.line = append(s.line, b...)
	return nil
}

// endLine takes the messages of the line read: the JSON-RPC ones go to
// ready, the others are answered with an error.
func (s *stdio) endLine() error {
	line := bytes.TrimSpace(s.line)
	s.line = s.line[:0]
	if s.skipping {
		s.skipping = false
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(line))
	for {
		var value json.RawMessage
		err := dec.Decode(&value)
		switch {
		case err == io.EOF:
			return nil
		case err == io.ErrUnexpectedEOF:
			return s.answer(nil, jsonrpc.CodeParseError, "parse error: the line ends inside a message; MCP's stdio takes one whole message a line")
		case err != nil:
			return s.answer(nil, jsonrpc.CodeParseError, "parse error: "+err.Error()+"; MCP's stdio takes one JSON-RPC message a line")
		}
		if err := s.take(value, false); err != nil {
			return err
		}
	}
}

// take passes value on to the SDK when it is a JSON-RPC message, and each
// message of a batch, and answers anything else with an invalid request
// error.
func (s *stdio) take(value json.RawMessage, inBatch bool) error {
	switch value[0] {
	case '{':
		msg, err := jsonrpc.DecodeMessage(value)
		if err != nil {
			var m struct {
				ID json.RawMessage `json:"id"`
			}
			json.Unmarshal(value, &m)
			return s.answer(m.ID, jsonrpc.CodeInvalidRequest, "invalid request: "+err.Error())
		}
		if r, ok := msg.(*jsonrpc.Request); ok && r.ID.IsValid() {
			s.mu.Lock()
			s.unanswered[requestKey(r.ID)] = true
			s.mu.Unlock()
		}
		s.ready = append(append(s.ready, value...), '\n')
		return nil
	case '[':
		var batch []json.RawMessage
		json.Unmarshal(value, &batch)
		switch {
		case inBatch:
			return s.answer(nil, jsonrpc.CodeInvalidRequest, "invalid request: a batch inside a batch")
		case len(batch) == 0:
			return s.answer(nil, jsonrpc.CodeInvalidRequest, "invalid request: an empty batch")
		}
		for _, m := range batch {
			if err := s.take(m, true); err != nil {
				return err
			}
		}
		return nil
	}
	return s.answer(nil, jsonrpc.CodeInvalidRequest, "invalid request: not a JSON-RPC message, which is an object")
}

// answer writes a JSON-RPC error response of its own to the client; id is
// the request's, or nil when it has none that can be read.
func (s *stdio) answer(id json.RawMessage, code int64, message string) error {
	if len(id) == 0 || !(id[0] == '"' || id[0] == '-' || (id[0] >= '0' && id[0] <= '9')) {
		id = json.RawMessage("null")
	}
	type errorObject struct {
		Code    int64  `json:"code"`
		Message string `json:"message"`
	}
	msg, err := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   errorObject     `json:"error"`
	}{"2.0", id, errorObject{code, message}})
	if err != nil {
		return err
	}
	s.writing.Lock()
	defer s.writing.Unlock()
	_, err = s.w.Write(append(msg, '\n'))
	return err
}

func (s *stdio) Write(p []byte) (int, error) {
	s.writing.Lock()
	n, err := s.w.Write(p)
	s.writing.Unlock()
	s.mu.Lock()
	before := len(s.unanswered)
	s.out.feed(p[:n], func(v []byte) {
		for _, id := range responseIDs(v) {
			delete(s.unanswered, responseKey(id))
		}
	})
	if len(s.unanswered) != before {
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
		done, changed := len(s.unanswered) == 0, s.changed
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

// responseIDs returns the ids of the responses (an id and no method) in
// a JSON-RPC message the server wrote: an object, or a batch of them.
func responseIDs(value []byte) []json.RawMessage {
	type message struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	var batch []message
	if len(value) > 0 && value[0] == '[' {
		if json.Unmarshal(value, &batch) != nil {
			return nil
		}
	} else {
		var m message
		if json.Unmarshal(value, &m) != nil {
			return nil
		}
		batch = []message{m}
	}
	var ids []json.RawMessage
	for _, m := range batch {
		if len(m.ID) > 0 && string(m.ID) != "null" && m.Method == "" {
			ids = append(ids, m.ID)
		}
	}
	return ids
}

// requestKey is the id of a request as the SDK answers it: MakeID reads
// a number as an int64 (7.0 and 7.5 are answered as 7).
func requestKey(id jsonrpc.ID) string {
	switch v := id.Raw().(type) {
	case string:
		return "s" + v
	case int64:
		return "n" + strconv.FormatInt(v, 10)
	}
	return fmt.Sprint(id.Raw())
}

// responseKey is the id of a response the SDK wrote, as requestKey gives
// it: a string, or an int64 written as such.
func responseKey(id json.RawMessage) string {
	var s string
	if json.Unmarshal(id, &s) == nil {
		return "s" + s
	}
	return "n" + string(bytes.TrimSpace(id))
}

// jsonValues splits a stream into its top-level JSON objects and arrays,
// however they are spread over lines and writes. What is between them
// (blanks, and anything that is no object or array) is skipped.
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
